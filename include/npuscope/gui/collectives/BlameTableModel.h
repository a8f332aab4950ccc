// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/BlameAnalysis.h"

namespace npuscope::gui {

// The roots of one step (query::BlameAnalysis), largest induced wait first; the share column draws a bar
// (ShareRole). GUI thread only.
class BlameTableModel : public RowTableModel<query::BlameRoot> {
    Q_OBJECT
public:
    enum Column { Root, Cause, Induced, Share, Instances, Evidence, ColumnCount };

    explicit BlameTableModel(QObject* parent = nullptr);
    void setRoots(std::vector<query::BlameRoot> roots) { resetRows(std::move(roots)); }
    // "rank 37" or "link 5-37".
    static QString rootText(const query::BlameRoot& root);
    // The root's evidence in one line (computing / free against its peers, or transit against the expected one).
    static QString evidenceText(const query::BlameRoot& root);
    // query::blameCauseName, translated ("compute", "host", "link", "unknown").
    static QString causeText(query::BlameCause cause);
};

} // namespace npuscope::gui
