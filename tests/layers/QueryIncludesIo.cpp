// SPDX-License-Identifier: Apache-2.0
// Must not build: queries read the model, never the input files.
#include "npuscope/io/parse/SourceFile.h"
