// SPDX-License-Identifier: Apache-2.0
// Must not build: nothing below gui sees the GUI.
#include "npuscope/gui/common/Workspace.h"
