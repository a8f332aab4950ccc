// SPDX-License-Identifier: Apache-2.0
#pragma once

// QT_TRANSLATE_NOOP(context, text) for the layers below the GUI, which have no Qt: it marks a fixed string that the
// GUI shows translated (QCoreApplication::translate(context, text), e.g. through npuscope::TrText) for lupdate, which
// scripts/update-translations.sh runs over the files that use it; the CLI and the JSON contracts print the string as
// written. Include it in .cpp files only, so that it never meets Qt's own definition.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif
