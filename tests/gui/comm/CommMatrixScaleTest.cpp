// SPDX-License-Identifier: Apache-2.0
// The communication matrix at scale, on synthetic matrices of 8, 256 and 1,024 ranks: it fills the widget, its labels
// never overlap nor leave the widget, rank ticks ascend evenly, blocks are labelled with group names (hash in the
// tooltip), and below kMinCellPx per rank cells summarise blocks of ranks (the statistic checked against the cells)
// until zooming in (wheel, dragged rectangle) shows single ranks; double-click fits again; clicks select links.
#include "GuiTestSupport.h"

#include "npuscope/gui/comm/CommMatrixView.h"

#include <QApplication>
#include <QMouseEvent>
#include <QTest>
#include <QThreadPool>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

using namespace npuscope;
using namespace npuscope::gui;

namespace {

// n ranks in tp groups of `tp` (named "tp", hashes "hash<i>"): all-to-all inside a group over HCCS, a ring across
// groups over RDMA, and one slow link 3 → 4. byPp: the axis ordered by pp-style groups (rank % groups), so it does
// not ascend.
query::CommMatrix syntheticMatrix(int n, int tp, bool byPp = false)
{
    query::CommMatrix m;
    const int groups = n / tp;
    if (byPp) {
        // Group g holds ranks g, g + groups, g + 2·groups, ...
        for (int g = 0; g < groups; ++g) {
            const size_t begin = m.ranks.size();
            for (int i = 0; i < tp; ++i)
                m.ranks.push_back(g + i * groups);
            m.blocks.push_back({ begin, m.ranks.size(), "pp", "hash" + std::to_string(g) });
        }
        m.orderedBy = "pp";
    } else {
        for (int g = 0; g < groups; ++g) {
            const size_t begin = m.ranks.size();
            for (int i = 0; i < tp; ++i)
                m.ranks.push_back(g * tp + i);
            m.blocks.push_back({ begin, m.ranks.size(), "tp", "hash" + std::to_string(g) });
        }
        m.orderedBy = "tp";
    }
    auto add = [&m](int64_t src, int64_t dst, const char* transport, double mb, int64_t ns) {
        query::MatrixCell c;
        c.src = src;
        c.dst = dst;
        c.transport = transport;
        c.sizeMb = mb;
        c.timeNs = ns;
        c.links = 1;
        m.cells.push_back(c);
    };
    for (int r = 0; r < n; ++r) {
        const int g = r / tp;
        for (int d = g * tp; d < (g + 1) * tp; ++d) {
            if (d != r)
                add(r, d, "HCCS", 100.0 + r % 7, (r == 3 && d == 4) ? 500000000 : 5000000 + (r * 31 + d) % 1000);
        }
        add(r, (r + tp) % n, "RDMA", 50.0, 20000000);
        add(r, r, "LOCAL", 1.0, 1000);
    }
    std::sort(m.cells.begin(), m.cells.end(),
        [](const auto& a, const auto& b) { return std::make_pair(a.src, a.dst) < std::make_pair(b.src, b.dst); });
    for (size_t i = 0; i < m.cells.size(); ++i) {
        if (m.cells[i].src == 3 && m.cells[i].dst == 4)
            m.slowestCell = i;
    }
    return m;
}

void expectNoOverlap(const CommMatrixView& view, const std::string& what)
{
    const auto& rects = view.labelRects();
    ASSERT_FALSE(rects.empty()) << what;
    for (size_t i = 0; i < rects.size(); ++i) {
        EXPECT_TRUE(view.rect().contains(rects[i])) << what << ": label " << i << " leaves the widget";
        for (size_t j = i + 1; j < rects.size(); ++j)
            ASSERT_FALSE(rects[i].intersects(rects[j])) << what << ": labels " << i << " and " << j << " overlap";
    }
    // The caption (drawn first) is whole: the plot starts below it.
    EXPECT_LE(rects.front().bottom(), view.plotRect().top()) << what;
}

void send(QWidget* w, QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons)
{
    QMouseEvent e(type, QPointF(pos), QPointF(w->mapToGlobal(pos)), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}

} // namespace

TEST(CommMatrixScale, LabelsNeverOverlapAt8_256And1024Ranks)
{
    for (const int n : { 8, 256, 1024 }) {
        for (const bool byPp : { false, true }) {
            for (const QSize size : { QSize(420, 300), QSize(900, 600), QSize(1900, 1000) }) {
                CommMatrixView view;
                view.resize(size);
                view.setMatrix(syntheticMatrix(n, n == 8 ? 4 : 8, byPp));
                for (const auto metric : { CommMatrixView::Metric::Bandwidth, CommMatrixView::Metric::Transport }) {
                    view.setMetric(metric);
                    for (const double zoom : { 1.0, 4.0 }) {
                        view.setZoom(zoom);
                        view.grab();
                        const std::string what = std::to_string(n) + " ranks" + (byPp ? " (pp order) " : " ")
                            + std::to_string(size.width()) + "x" + std::to_string(size.height()) + " zoom "
                            + std::to_string(zoom);
                        expectNoOverlap(view, what);
                        // Group labels: one every few blocks with the same stride along each axis, so on equal
                        // blocks they are evenly spaced (at zoom 1, where every block is on screen).
                        if (zoom == 1.0) {
                            for (const auto* labels : { &view.rowBlockLabels(), &view.columnBlockLabels() }) {
                                if (labels->size() < 4)
                                    continue;
                                // The first and last labels may be moved to stay inside the plot (and then the
                                // next one may give way): the stride and pitch are those in between.
                                const size_t stride = (*labels)[2].first - (*labels)[1].first;
                                const bool rows = labels == &view.rowBlockLabels();
                                const auto at = [rows](const QRect& r) { return rows ? r.center().y() : r.left(); };
                                const int pitch = at((*labels)[2].second) - at((*labels)[1].second);
                                for (size_t i = 2; i + 1 < labels->size(); ++i) {
                                    EXPECT_EQ((*labels)[i].first - (*labels)[i - 1].first, stride) << what;
                                    EXPECT_NEAR(at((*labels)[i].second) - at((*labels)[i - 1].second), pitch, 1)
                                        << what;
                                }
                            }
                        }
                        // Rank ticks ascend on an ascending axis, evenly spaced unless every rank is labelled.
                        const auto& ticks = view.columnTicks();
                        if (!byPp) {
                            ASSERT_GE(ticks.size(), 2u) << what;
                            EXPECT_TRUE(std::is_sorted(ticks.begin(), ticks.end())) << what;
                            for (size_t i = 2; i < ticks.size(); ++i)
                                EXPECT_EQ(ticks[i] - ticks[i - 1], ticks[1] - ticks[0]) << what;
                        }
                    }
                }
            }
        }
    }
}

TEST(CommMatrixScale, FillsTheWidgetAndNamesTheGroups)
{
    CommMatrixView view;
    view.resize(1600, 500);
    view.setMatrix(syntheticMatrix(256, 8));
    view.grab();
    const QRect plot = view.plotRect();
    // Wide and short: the plot takes the width too (it used to be a square of the height).
    EXPECT_GT(plot.width(), view.width() * 3 / 4);
    EXPECT_GT(plot.height(), view.height() * 3 / 4);
    ASSERT_EQ(view.blockLabels().size(), 32u);
    EXPECT_EQ(view.blockLabels()[0], QStringLiteral("tp 0\u20137"));
    EXPECT_EQ(view.blockLabels()[31], QStringLiteral("tp 248\u2013255"));
    for (const QString& label : view.blockLabels())
        EXPECT_FALSE(label.contains(QStringLiteral("hash"))) << label.toStdString();
    // The hash is in the group label's tooltip (left of the row ticks, beside block 0).
    const QPoint band(6, static_cast<int>(view.cellRect(0, 0).center().y()));
    const QString tip = view.toolTipAt(band);
    EXPECT_TRUE(tip.contains(QStringLiteral("hash0"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("0-7"))) << tip.toStdString();

    view.setMatrix(syntheticMatrix(256, 8, true));
    EXPECT_EQ(view.blockLabels()[0], QStringLiteral("pp 0,32,64,\u2026"));
}

TEST(CommMatrixScale, AggregatesBlocksAt1024RanksAndZoomRevealsSingleRanks)
{
    CommMatrixView view;
    view.resize(900, 700);
    view.setMatrix(syntheticMatrix(1024, 8));
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    view.grab();
    const int k = view.blockSize();
    EXPECT_GT(k, 1);
    const QPointF px = QPointF(view.plotRect().width(), view.plotRect().height()) / 1024.0;
    EXPECT_LT(std::min(px.x(), px.y()), CommMatrixView::kMinCellPx);
    EXPECT_GE(std::min(px.x(), px.y()) * k, CommMatrixView::kMinCellPx);

    // The block holding the slow link 3 → 4: its colour is the lowest bandwidth of its links, and a click selects
    // that link.
    const QPoint at = view.cellRect(3, 4).center().toPoint();
    const auto block = view.blockAt(at);
    ASSERT_TRUE(block.has_value());
    EXPECT_EQ(block->row1 - block->row0, k);
    EXPECT_EQ(block->col1 - block->col0, k);
    double lowest = std::numeric_limits<double>::infinity();
    double summed = 0;
    int links = 0;
    for (const auto& c : view.matrix().cells) {
        if (c.src == c.dst || c.src < block->row0 || c.src >= block->row1 || c.dst < block->col0
            || c.dst >= block->col1)
            continue;
        lowest = std::min(lowest, *c.bandwidthGbps());
        summed += c.sizeMb;
        ++links;
    }
    EXPECT_EQ(block->links, links);
    ASSERT_TRUE(block->value.has_value());
    EXPECT_DOUBLE_EQ(*block->value, lowest);
    const auto* rep = view.cellAt(at);
    ASSERT_NE(rep, nullptr);
    EXPECT_EQ(rep->src, 3);
    EXPECT_EQ(rep->dst, 4);
    EXPECT_TRUE(view.toolTipAt(at).contains(view.statisticText())) << view.toolTipAt(at).toStdString();
    view.setMetric(CommMatrixView::Metric::Size);
    EXPECT_DOUBLE_EQ(*view.blockAt(at)->value, summed);
    view.setMetric(CommMatrixView::Metric::Bandwidth);

    std::vector<std::pair<qint64, qint64>> clicked;
    QObject::connect(&view, &CommMatrixView::linkClicked, &view,
        [&clicked](qint64 src, qint64 dst) { clicked.emplace_back(src, dst); });
    send(&view, QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton);
    send(&view, QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton);
    ASSERT_EQ(clicked.size(), 1u);
    EXPECT_EQ(clicked[0], (std::pair<qint64, qint64>(3, 4)));

    // Repaints at one zoom reuse the cached image.
    view.grab();
    const int built = view.imagesBuilt();
    for (int i = 0; i < 5; ++i)
        view.grab();
    EXPECT_EQ(view.imagesBuilt(), built);

    // Wheel in: fewer ranks per cell.
    const QPoint centre = view.plotRect().center();
    for (int i = 0; i < 4; ++i) {
        QWheelEvent wheel(QPointF(centre), QPointF(view.mapToGlobal(centre)), QPoint(), QPoint(0, 240), Qt::NoButton,
            Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
    }
    EXPECT_GT(view.zoom(), 4.0);
    EXPECT_LT(view.blockSize(), k);

    // Drag a rectangle around a few ranks: single ranks, and a click there selects exactly that link.
    view.resetView();
    EXPECT_EQ(view.blockSize(), k);
    const QPoint from = view.plotRect().topLeft();
    const QPoint to = view.cellRect(16, 16).topLeft().toPoint();
    send(&view, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    send(&view, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::LeftButton);
    send(&view, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
    send(&view, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
    EXPECT_EQ(view.blockSize(), 1);
    EXPECT_LE(view.visibleCells().width(), 20.0); // 16 ranks, give or take the pixels of a drag (~1.3 ranks each)
    EXPECT_LT(view.visibleCells().left(), 1.0);
    const QPoint link(view.cellRect(1, 2).center().toPoint());
    ASSERT_NE(view.cellAt(link), nullptr);
    EXPECT_EQ(view.cellAt(link)->src, 1);
    EXPECT_EQ(view.cellAt(link)->dst, 2);
    view.grab();
    expectNoOverlap(view, "1024 ranks zoomed to 16");
    send(&view, QEvent::MouseButtonPress, link, Qt::LeftButton, Qt::LeftButton);
    send(&view, QEvent::MouseButtonRelease, link, Qt::LeftButton, Qt::NoButton);
    ASSERT_EQ(clicked.size(), 2u);
    EXPECT_EQ(clicked[1], (std::pair<qint64, qint64>(1, 2)));

    // Double-click fits the whole matrix again.
    QTest::mouseDClick(&view, Qt::LeftButton, {}, link);
    EXPECT_DOUBLE_EQ(view.zoom(), 1.0);
    EXPECT_EQ(view.blockSize(), k);
    const QImage image = view.grab().toImage();
    test::keepImage(image, QStringLiteral("comm_matrix_1024.png"));
    EXPECT_GT(test::distinctColours(image), 10);
}

// With a worker pool the cell images are built off the GUI thread: while one is built the view says so (busy signal,
// imagesPending), and once it is in, the view draws exactly what the GUI-thread build draws, with the same range.
TEST(CommMatrixScale, ImagesBuiltOnAPoolEqualTheGuiThreadImages)
{
    QThreadPool pool;
    pool.setMaxThreadCount(1);
    CommMatrixView onGui, onPool;
    onPool.setWorkerPool(&pool);
    std::vector<bool> busy;
    QObject::connect(&onPool, &CommMatrixView::imagesBusyChanged, &onPool, [&busy](bool b) { busy.push_back(b); });
    for (CommMatrixView* v : { &onGui, &onPool }) {
        v->resize(700, 600);
        v->setMatrix(syntheticMatrix(1024, 8));
    }
    EXPECT_TRUE(onGui.valueRange().has_value());
    onPool.grab(); // asks for the fitted zoom's image too
    ASSERT_TRUE(test::waitFor([&] { return !onPool.imagesPending(); }, 20000));
    ASSERT_EQ(busy, (std::vector<bool> { true, false }));
    ASSERT_TRUE(onPool.valueRange().has_value());
    EXPECT_EQ(*onPool.valueRange(), *onGui.valueRange());
    EXPECT_GT(onGui.blockSize(), 1);
    EXPECT_EQ(onPool.grab().toImage(), onGui.grab().toImage());

    // A new metric drops the images: the next ones are built again, the old results never shown.
    onPool.setMetric(CommMatrixView::Metric::Size);
    onGui.setMetric(CommMatrixView::Metric::Size);
    onPool.grab();
    ASSERT_TRUE(test::waitFor([&] { return !onPool.imagesPending(); }, 20000));
    EXPECT_EQ(onPool.grab().toImage(), onGui.grab().toImage());
}
