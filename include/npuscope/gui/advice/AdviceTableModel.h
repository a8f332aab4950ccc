// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowTableModel.h"
#include "npuscope/query/advice/Finding.h"

namespace npuscope::gui {

// The advice findings (query::advice::AdviceQuery), one row each, in the query's order (critical first, then by
// impact): severity (icon and colour), the step time the finding explains, rule id, category, value with unit,
// threshold, ranks / links, message. GUI thread only.
class AdviceTableModel : public RowTableModel<query::advice::Finding> {
    Q_OBJECT
public:
    enum Column { Severity, Impact, Rule, Category, Value, Threshold, Where, Message, ColumnCount };

    explicit AdviceTableModel(QObject* parent = nullptr);

    void setFindings(std::vector<query::advice::Finding> findings);
    // The ranks, else the links, of a finding in a short text ("9, 1", "16 → 17 HCCS", "0, 1, 2, … (16)").
    static QString whereText(const query::advice::Finding& f);
    // What separates the items of a list in the current language (", "; zh_CN "、").
    static QString listSeparator();
    // "1.5 ms"; a ratio without unit, a share as a percentage ("12.5 %").
    static QString valueText(double value, const std::string& unit);
    // The step time a finding explains (docs/metrics.md, "Impact"): "84.9 ms (26.0 %)"; "—" when the rule has no
    // estimate.
    static QString impactText(const query::advice::Finding& f);
    // The same as a sentence: "explains 84.9 ms (26.0 % of the step)", or that the rule does not estimate it.
    static QString impactSentence(const query::advice::Finding& f);
    // The Impact column's sort key, the query's order: severity, then impact (ms).
    static double impactSortKey(const query::advice::Finding& f);
    // Severity and category names as shown (translated; the rule ids and the npuscope.advice/1 names stay English).
    static QString severityText(query::advice::Severity severity);
    static QString categoryText(const std::string& category);
    // A finding's message, suggestion or threshold in words as shown: the rule's templates translated
    // (QCoreApplication::translate), filled with its figures; english (the finding's string) when form is empty.
    static QString translated(const query::advice::FindingText& form, const std::string& english);

protected:
    std::optional<QVariant> cellData(const query::advice::Finding& row, int column, int role) const override;
};

} // namespace npuscope::gui
