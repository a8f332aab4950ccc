// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

#include <memory>

namespace npuscope::query {
struct RunDiff;
}

namespace npuscope::gui {

class QueryRunner;
class Workspace;

// The one comparison every compare view shows: query::RunComparison of the Workspace's baseline with its model (each
// side the mean per step over all its steps), computed off the GUI thread after each baseline change; the model's
// deferred Kernels and Memory groups are imported first (ranks in parallel). One per Workspace (of() makes it, a child
// of the Workspace). Errors go to the Parse issues dock under "Compare". GUI thread only.
class BaselineComparison : public QObject {
    Q_OBJECT
public:
    // The Workspace's comparison object, made on first use.
    static BaselineComparison* of(Workspace* workspace);

    // nullptr without a baseline, while it is computed, and after a new model is opened (the baseline belonged to
    // the old one).
    std::shared_ptr<const query::RunDiff> comparison() const { return m_comparison; }
    bool isBusy() const;

signals:
    void comparisonChanged();

private:
    explicit BaselineComparison(Workspace* workspace);
    void recompute();
    void setComparison(std::shared_ptr<const query::RunDiff> comparison);

    Workspace* m_workspace;
    QueryRunner* m_runner;
    std::shared_ptr<const query::RunDiff> m_comparison;
};

} // namespace npuscope::gui
