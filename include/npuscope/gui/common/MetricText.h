// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>
#include <QString>

#include <string_view>

class QObject;

namespace npuscope::gui {

// query::MetricDefinitions as the GUI shows them: translated (context "MetricDefinitions" of the .ts files), and
// matched to the table columns that show a defined metric, so a header tooltip starts with the definition
// docs/metrics.md gives. GUI thread only.
class MetricText {
    Q_DECLARE_TR_FUNCTIONS(MetricText)

public:
    // The translated name / definition of a metric of query::MetricDefinitions; empty when it is not there.
    static QString name(std::string_view metric);
    static QString definition(std::string_view metric);
    // The metric a column of model shows, found by the model's class and the column's title (as shown, its unit
    // in brackets or parentheses ignored); empty when the column shows no defined metric.
    static std::string_view metricOf(const QObject& model, const QString& title);
    // A column's header tooltip: "Name: definition" of its metric (when it shows one) and then the column's own
    // note (how the table sums or scopes it), or only the note.
    static QString headerTip(const QObject& model, const QString& title, const QString& note);
};

} // namespace npuscope::gui
