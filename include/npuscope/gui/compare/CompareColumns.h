// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/common/RowColumn.h"
#include "npuscope/gui/compare/DeltaColors.h"

#include <QCoreApplication>

#include <cmath>
#include <functional>
#include <optional>
#include <vector>

namespace npuscope::gui {

// One figure of a table row in both runs of compare mode, as query::RunComparison gives it (BaselineComparison);
// nullopt on a side that lacks it.
struct CompareFigures {
    std::optional<double> base, neu;
    std::optional<double> delta() const
    {
        if (!base || !neu)
            return std::nullopt;
        return *neu - *base;
    }
    // (new − base) ÷ base × 100; nullopt when either side lacks it or base is 0.
    std::optional<double> deltaPct() const
    {
        if (!base || !neu || *base == 0)
            return std::nullopt;
        return (*neu - *base) / *base * 100.0;
    }
};

// The Base / New / Δ / Δ % columns a dock's table gains in compare mode, for one figure (what, e.g. "step", in unit,
// e.g. "ms"). The Δ column sorts by |Δ| (its ValueRole), so a descending sort puts the largest changes first; its text
// keeps the sign. Δ and Δ % are tinted by sign (red: the new run is larger). figures: the row's two values, nullopt
// when the comparison has no entry for the row (every cell "—"). Texts are translated in the "CompareColumns" context.
// GUI thread only.
class CompareColumns {
public:
    enum Part { Base, New, Delta, DeltaPct, PartCount };
    // The value kept in ValueRole of the Δ column: |Δ|.
    template <class Row> using Figures = std::function<std::optional<CompareFigures>(const Row&)>;

    static QString tr(const char* text) { return QCoreApplication::translate("CompareColumns", text); }

    // parts: which of Base, New, Delta, DeltaPct to make (in that order).
    template <class Row>
    static std::vector<RowColumn<Row>> make(const QString& what, const QString& unit, int decimals,
        Figures<Row> figures, std::vector<Part> parts = { Base, New, Delta, DeltaPct })
    {
        std::vector<RowColumn<Row>> out;
        const QString of = what.isEmpty() ? unit : tr("%1 (%2)").arg(what, unit);
        auto fmt = [decimals](double v, bool sign) {
            return sign ? DeltaColors::signedText(v, decimals) : QString::number(v, 'f', decimals);
        };
        auto tip = [figures, fmt, unit](const Row& r) -> QVariant {
            const auto f = figures(r);
            if (!f)
                return tr("Not in the comparison");
            auto side = [&fmt, &unit](std::optional<double> v) {
                return v ? fmt(*v, false) + QLatin1Char(' ') + unit : QStringLiteral("\u2014");
            };
            QString text = tr("base %1 \u2192 new %2").arg(side(f->base), side(f->neu));
            if (const auto d = f->delta()) {
                text += QStringLiteral(" (%1 %2").arg(fmt(*d, true), unit);
                if (const auto p = f->deltaPct())
                    text += QStringLiteral(", %1 %").arg(DeltaColors::signedText(*p, 1));
                text += QLatin1Char(')');
            }
            return text;
        };
        for (Part part : parts) {
            switch (part) {
            case Base:
            case New: {
                const bool base = part == Base;
                RowColumn<Row> c { base ? tr("Base %1").arg(of) : tr("New %1").arg(of),
                    base ? tr("The baseline's figure (mean per step over its steps; docs/metrics.md, \u201cComparing "
                              "two runs\u201d)")
                         : tr("The opened run's figure (mean per step over its steps; docs/metrics.md, \u201cComparing "
                              "two runs\u201d)"),
                    [figures, base](const Row& r) -> QVariant {
                        const auto f = figures(r);
                        const auto v = f ? (base ? f->base : f->neu) : std::nullopt;
                        return v ? QVariant(*v) : QVariant();
                    },
                    [figures, base, fmt](const Row& r) {
                        const auto f = figures(r);
                        const auto v = f ? (base ? f->base : f->neu) : std::nullopt;
                        return v ? fmt(*v, false) : QStringLiteral("\u2014");
                    } };
                c.toolTip = tip;
                out.push_back(std::move(c));
                break;
            }
            case Delta: {
                RowColumn<Row> c { tr("\u0394 %1").arg(of),
                    tr("New \u2212 base; sorts by |\u0394|, the largest change first when descending"),
                    [figures](const Row& r) -> QVariant {
                        const auto f = figures(r);
                        const auto d = f ? f->delta() : std::nullopt;
                        return d ? QVariant(std::abs(*d)) : QVariant();
                    },
                    [figures, fmt](const Row& r) {
                        const auto f = figures(r);
                        const auto d = f ? f->delta() : std::nullopt;
                        return d ? fmt(*d, true) : QStringLiteral("\u2014");
                    } };
                c.toolTip = tip;
                c.foreground = [figures, decimals](const Row& r) -> QVariant {
                    const auto f = figures(r);
                    const auto d = f ? f->delta() : std::nullopt;
                    return d ? DeltaColors::foreground(*d, decimals) : QVariant();
                };
                out.push_back(std::move(c));
                break;
            }
            case DeltaPct: {
                RowColumn<Row> c { what.isEmpty() ? tr("\u0394 %") : tr("\u0394 %1 %").arg(what),
                    tr("(new \u2212 base) \u00f7 base \u00d7 100; \u2014 when base is 0"),
                    [figures](const Row& r) -> QVariant {
                        const auto f = figures(r);
                        const auto p = f ? f->deltaPct() : std::nullopt;
                        return p ? QVariant(*p) : QVariant();
                    },
                    [figures](const Row& r) {
                        const auto f = figures(r);
                        const auto p = f ? f->deltaPct() : std::nullopt;
                        return p ? DeltaColors::signedText(*p, 1) : QStringLiteral("\u2014");
                    } };
                c.toolTip = tip;
                c.foreground = [figures](const Row& r) -> QVariant {
                    const auto f = figures(r);
                    const auto p = f ? f->deltaPct() : std::nullopt;
                    return p ? DeltaColors::foreground(*p, 1) : QVariant();
                };
                out.push_back(std::move(c));
                break;
            }
            case PartCount:
                break;
            }
        }
        return out;
    }
};

} // namespace npuscope::gui
