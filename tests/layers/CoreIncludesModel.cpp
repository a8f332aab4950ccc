// SPDX-License-Identifier: Apache-2.0
// Must not build: core is below the model.
#include "npuscope/model/Database.h"
