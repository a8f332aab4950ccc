// SPDX-License-Identifier: Apache-2.0
// Must not build: the model layer may not see the importers (docs/architecture.md).
#include "npuscope/io/detect/Detector.h"
