// SPDX-License-Identifier: Apache-2.0
// Must not build: importers do not drive loading.
#include "npuscope/load/Loader.h"
