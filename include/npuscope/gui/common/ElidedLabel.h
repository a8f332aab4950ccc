// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QLabel>
#include <QString>

namespace npuscope::gui {

// A one-line hint that gives way to the controls beside it: it asks for no width of its own (its size policy ignores
// its hint), and when it is narrower than its text it shows the text cut with "…" at the end and the whole text in
// its tooltip, instead of letters cut off at the edge. GUI thread only.
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(const QString& text, QWidget* parent = nullptr);

    void setFullText(const QString& text);
    const QString& fullText() const { return m_full; }
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void elide();
    QString m_full;
};

} // namespace npuscope::gui
