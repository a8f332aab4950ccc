// SPDX-License-Identifier: Apache-2.0
// What the benches that drive the real window share (gui-open, strategy-graph).
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QThread>

#include <algorithm>
#include <vector>

namespace npuscope::bench {

// Spins the event loop for ms, or until done() holds; returns done().
template <typename Done> bool spinEvents(int ms, Done done)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms && !done()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        QThread::msleep(2);
    }
    return done();
}

// The median of v (the mean of the middle two for an even count); 0 for none.
inline double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    if (v.empty())
        return 0;
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

} // namespace npuscope::bench
