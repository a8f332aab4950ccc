// SPDX-License-Identifier: Apache-2.0
// Must build: the control case, an allowed include through the same mechanism.
#include "npuscope/model/Database.h"
