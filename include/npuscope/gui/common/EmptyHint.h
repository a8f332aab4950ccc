// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QAbstractItemView;
class QLabel;

namespace npuscope::gui {

// A sentence in the middle of an item view while its model has no rows ("No slow device in this step"), so an empty
// table says why it is empty instead of showing bare headers. Set it again to change the text; an empty text removes
// the hint. The hint follows the model's rows (reset, insert, remove) and the viewport's size. GUI thread only.
void setEmptyHint(QAbstractItemView* view, const QString& text);
// The hint's label (for tests), nullptr when none was set.
QLabel* emptyHintOf(const QAbstractItemView* view);

} // namespace npuscope::gui
