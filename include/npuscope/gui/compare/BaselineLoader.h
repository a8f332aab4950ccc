// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QStringList>

#include <atomic>
#include <memory>

namespace npuscope::gui {

class Workspace;

// Loads the baseline of compare mode off the GUI thread through the same Loader as the main model (summary and every
// rank's Kernels and Memory groups, through the parse cache when useCache) and hands it to Workspace::setBaseline.
// Counts as a Workspace query while it runs, so "wait until idle" covers it. A newer load() or cancel() drops a load in
// flight. GUI thread only.
class BaselineLoader : public QObject {
    Q_OBJECT
public:
    BaselineLoader(Workspace* workspace, QObject* parent = nullptr);
    ~BaselineLoader() override;

    void load(const QStringList& paths, bool useCache);
    void cancel();
    bool isLoading() const { return m_cancel != nullptr; }

signals:
    // ok: the baseline was set; message: "2 ranks" or what failed (nothing found, cancelled, an exception's text).
    void finished(bool ok, const QString& message);

private:
    Workspace* m_workspace;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace npuscope::gui
