// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFont>
#include <QList>

class QObject;

namespace npuscope::gui {

// Loads the font faces the views draw with while the window is idle (the welcome page), one face per event-loop turn,
// so that the first paint of a filled table or chart does not open them on the GUI thread: loading a face
// (FT_New_Face) and shaping its first line took 50-100 ms there, once per face (regular, bold, italic), and the first
// paint after an open was the longest GUI-thread stall of the X11 sessions. GUI thread only.
class FontWarmup {
public:
    // The faces derived from base that the views use: base, bold, italic, bold italic and the small chart size.
    static QList<QFont> facesOf(const QFont& base);
    // Lays out and rasterises a line of every character class the views print (digits, units, Latin, symbols such as
    // "–", "…", "µ", "×", "✓") in font, into an image nobody sees. Returns the glyphs drawn (for a test).
    static int warm(const QFont& font);
    // Queues warm() of each face of base, one per turn of context's event loop; nothing runs once context is gone.
    static void schedule(QObject* context, const QFont& base);
};

} // namespace npuscope::gui
