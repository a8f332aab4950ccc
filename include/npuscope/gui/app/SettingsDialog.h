// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npuscope/gui/app/Appearance.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace npuscope::gui {

// Edit → Settings…: language (applies after a restart), theme, Cluster steps' time unit, font size and the neutral
// band of the tables' colour (at once).
// GUI thread only.
class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(const Appearance::Choices& current, QWidget* parent = nullptr);

    Appearance::Choices choices() const;

private:
    QComboBox* m_language;
    QComboBox* m_theme;
    QComboBox* m_timeUnit;
    QSpinBox* m_fontSize;
    QDoubleSpinBox* m_neutralBand;
};

} // namespace npuscope::gui
