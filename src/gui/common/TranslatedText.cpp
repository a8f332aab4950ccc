// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/TranslatedText.h"

#include "npuscope/query/RankQuery.h"

#include <QCoreApplication>

namespace npuscope::gui {

QString translatedText(const TrText& text)
{
    return QString::fromStdString(text.render([](const char* context, const std::string& source) {
        return QCoreApplication::translate(context, source.c_str()).toStdString();
    }));
}

QString issueMessage(const std::optional<std::string>& messageTemplate, const std::string& message)
{
    if (messageTemplate) {
        if (const auto text = TrText::fromJson(*messageTemplate))
            return translatedText(*text);
    }
    return QString::fromStdString(message);
}

QString issueMessage(const query::ParseIssue& issue) { return issueMessage(issue.messageTemplate, issue.message); }

} // namespace npuscope::gui
