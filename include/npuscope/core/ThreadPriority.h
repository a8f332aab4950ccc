// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace npuscope {

// Background work below the threads that draw. In a process with a window (npuscope sets it at start), each worker
// thread lowers its own scheduling priority (Linux nice) by this increment when it starts background work, so that
// the GUI thread and the display server get a core while the load or a view's query keeps both busy: on a 2-core
// machine the X server's reply that QBackingStore::beginPaint waits for (xcb sync) took 120-140 ms behind the
// load's threads. A lowered thread never gets its priority back (pool threads only ever run background work).
// Process-wide; 0 (the default, e.g. npuscope-cli) leaves every thread as it is. Any thread.
void setBackgroundNice(int increment);
int backgroundNice();

// Lowers the calling thread by backgroundNice() once; a no-op when that is 0, on systems without per-thread nice,
// or when the thread was lowered already. Called by the worker threads the project starts (runOnThreads, HandOff,
// the importers' helper threads) and by the GUI's pool jobs; never on the GUI thread.
void enterBackground();

} // namespace npuscope
