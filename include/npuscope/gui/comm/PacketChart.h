// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"
#include "npuscope/query/PacketBuckets.h"

#include "npuscope/gui/common/ChartWidget.h"

#include <vector>

namespace npuscope::gui {

// Packet-size distribution, one panel per transport: packet counts in power-of-two size buckets
// (MB), with the transport's packet total and Large Packet Ratio in the panel title. GUI thread only.
class PacketChart : public ChartWidget {
    Q_OBJECT
public:
    using Bucket = query::PacketBucket;

    explicit PacketChart(QWidget* parent = nullptr);

    void setDistributions(std::vector<query::PacketDistribution> distributions);
    const std::vector<query::PacketDistribution>& distributions() const { return m_dists; }
    // query::packetBuckets: power-of-two buckets of one distribution, ascending, without empty ends.
    static std::vector<Bucket> buckets(const query::PacketDistribution& d) { return query::packetBuckets(d); }
    // Axis label of a bucket's lower edge, in bytes with a binary unit: "4 B", "128 B", "4 KiB", "16 MiB".
    static QString sizeLabel(double mb);
    // Which buckets get a tick label: every stride-th one, aligned on the tallest bar, so labels of width
    // labelWidth (px) never overlap at barWidth px per bucket.
    static std::vector<size_t> tickBuckets(const std::vector<Bucket>& buckets, double barWidth, int labelWidth);
    QSize sizeHint() const override { return { 420, 220 }; }
    // A bar of the last paint; its tooltip gives the bucket's count and time.
    int itemAt(const QPoint& pos) const override;
    QString itemToolTip(int item) const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Hit {
        QRectF rect;
        QString text;
    };
    std::vector<query::PacketDistribution> m_dists;
    std::vector<Hit> m_hits;
};

} // namespace npuscope::gui
