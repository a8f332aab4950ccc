// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/comm/GroupText.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace npuscope::gui {

QString firstRanksText(std::vector<int64_t> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    if (ranks.empty())
        return {};
    if (ranks.size() > 1 && ranks.back() - ranks.front() == static_cast<int64_t>(ranks.size()) - 1)
        return QStringLiteral("%1\u2013%2").arg(ranks.front()).arg(ranks.back());
    QStringList parts;
    for (size_t i = 0; i < std::min<size_t>(3, ranks.size()); ++i)
        parts << QString::number(ranks[i]);
    return parts.join(QLatin1Char(',')) + (ranks.size() > 3 ? QStringLiteral(",\u2026") : QString());
}

QString groupShortText(const std::optional<std::string>& name, const std::string& hash, const std::vector<int64_t>& ranks)
{
    const QString title = name && !name->empty() ? QString::fromStdString(*name)
                                                 : QCoreApplication::translate("GroupText", "group");
    if (!ranks.empty())
        return title + QLatin1Char(' ') + firstRanksText(ranks);
    if (!name || name->empty())
        return QString::fromStdString(hash);
    return title + QStringLiteral(" \u2026") + QString::fromStdString(hash.substr(hash.size() > 6 ? hash.size() - 6 : 0));
}

} // namespace npuscope::gui
