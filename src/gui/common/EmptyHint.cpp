// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/common/EmptyHint.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QLabel>
#include <QPointer>

namespace npuscope::gui {

namespace {

    const QString kName = QStringLiteral("emptyHint");

    // The label on the viewport: covers it, shows itself only while the model is empty.
    class HintLabel : public QLabel {
    public:
        explicit HintLabel(QAbstractItemView* view)
            : QLabel(view->viewport())
            , m_view(view)
        {
            setObjectName(kName);
            setAlignment(Qt::AlignCenter);
            setWordWrap(true);
            // Quiet but readable: the placeholder colour (the disabled grey was 1.7:1 on the light theme's base).
            setForegroundRole(QPalette::PlaceholderText);
            setAttribute(Qt::WA_TransparentForMouseEvents);
            setMargin(12);
            view->viewport()->installEventFilter(this);
        }

        void follow(QAbstractItemModel* model)
        {
            if (model == m_model)
                return;
            if (m_model)
                disconnect(m_model, nullptr, this, nullptr);
            m_model = model;
            if (model) {
                connect(model, &QAbstractItemModel::modelReset, this, &HintLabel::sync);
                connect(model, &QAbstractItemModel::layoutChanged, this, &HintLabel::sync);
                connect(model, &QAbstractItemModel::rowsInserted, this, &HintLabel::sync);
                connect(model, &QAbstractItemModel::rowsRemoved, this, &HintLabel::sync);
            }
        }

        void sync()
        {
            follow(m_view->model());
            const QRect area = m_view->viewport()->rect();
            setGeometry(area);
            // Centred while it fits; from the top when the viewport is lower than the text (a centred text cut at
            // both ends shows neither its start nor its end), and less margin.
            const bool fits = heightForWidth(area.width()) <= area.height();
            setMargin(fits ? 12 : 4);
            setAlignment(fits ? Qt::AlignCenter : Qt::AlignHCenter | Qt::AlignTop);
            setVisible(!text().isEmpty() && (!m_model || m_model->rowCount() == 0));
        }

    protected:
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (event->type() == QEvent::Resize || event->type() == QEvent::Show)
                sync();
            return QLabel::eventFilter(watched, event);
        }

    private:
        QAbstractItemView* m_view;
        QPointer<QAbstractItemModel> m_model;
    };

} // namespace

void setEmptyHint(QAbstractItemView* view, const QString& text)
{
    auto* label = static_cast<HintLabel*>(emptyHintOf(view));
    if (!label)
        label = new HintLabel(view);
    label->setText(text);
    label->sync();
}

QLabel* emptyHintOf(const QAbstractItemView* view)
{
    return view->viewport()->findChild<QLabel*>(kName, Qt::FindDirectChildrenOnly);
}

} // namespace npuscope::gui
