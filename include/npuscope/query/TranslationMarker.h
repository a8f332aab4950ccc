// SPDX-License-Identifier: Apache-2.0
#pragma once

// QT_TRANSLATE_NOOP for the query layer: the core layer's marker (npuscope/core/TranslationMarker.h). Include it in
// .cpp files only.
#include "npuscope/core/TranslationMarker.h"
