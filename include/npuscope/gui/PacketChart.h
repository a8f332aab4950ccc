// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/query/CommAnalysisQuery.h"

#include <QWidget>

#include <vector>

namespace npuscope::gui {

// Packet-size distribution, one panel per transport: packet counts in power-of-two size buckets
// (MB), with the transport's packet total and Large Packet Ratio in the panel title. GUI thread only.
class PacketChart : public QWidget {
    Q_OBJECT
public:
    struct Bucket {
        double lowMb = 0, highMb = 0; // [low, high)
        int64_t count = 0;
        int64_t totalNs = 0;
    };

    explicit PacketChart(QWidget* parent = nullptr);

    void setDistributions(std::vector<query::PacketDistribution> distributions);
    const std::vector<query::PacketDistribution>& distributions() const { return m_dists; }
    // Power-of-two buckets of one distribution, ascending, without empty ends.
    static std::vector<Bucket> buckets(const query::PacketDistribution& d);
    QSize sizeHint() const override { return { 420, 220 }; }

protected:
    bool event(QEvent* event) override;
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
