// SPDX-License-Identifier: Apache-2.0
#include "npuscope/gui/app/SettingsDialog.h"
#include "npuscope/gui/common/DivergingScale.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace npuscope::gui {

SettingsDialog::SettingsDialog(const Appearance::Choices& current, QWidget* parent)
    : QDialog(parent)
    , m_language(new QComboBox(this))
    , m_theme(new QComboBox(this))
    , m_timeUnit(new QComboBox(this))
    , m_fontSize(new QSpinBox(this))
    , m_neutralBand(new QDoubleSpinBox(this))
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    // Language names are written in their own language, so a user who cannot read the current one finds theirs.
    m_language->addItem(
        tr("System (%1)").arg(Appearance::resolvedLanguage(QStringLiteral("system"))), QStringLiteral("system"));
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("\u7b80\u4f53\u4e2d\u6587"), QStringLiteral("zh_CN"));
    m_language->setCurrentIndex(std::max(0, m_language->findData(current.language)));

    m_theme->addItem(tr("System"), static_cast<int>(Appearance::Theme::System));
    m_theme->addItem(tr("Light"), static_cast<int>(Appearance::Theme::Light));
    m_theme->addItem(tr("Dark"), static_cast<int>(Appearance::Theme::Dark));
    m_theme->setCurrentIndex(std::max(0, m_theme->findData(static_cast<int>(current.theme))));

    m_timeUnit->addItem(QStringLiteral("\u00b5s"), static_cast<int>(Appearance::TimeUnit::Microseconds));
    m_timeUnit->addItem(QStringLiteral("ms"), static_cast<int>(Appearance::TimeUnit::Milliseconds));
    m_timeUnit->setCurrentIndex(current.timeUnit == Appearance::TimeUnit::Milliseconds ? 1 : 0);
    m_timeUnit->setToolTip(tr("The unit of the Cluster steps tables (other views choose their unit per figure)"));

    m_fontSize->setRange(0, 32);
    m_fontSize->setSpecialValueText(tr("Default"));
    m_fontSize->setSuffix(tr(" pt"));
    m_fontSize->setValue(current.fontPointSize);

    m_neutralBand->setObjectName(QStringLiteral("neutralBand"));
    m_neutralBand->setRange(0, DivergingScale::kMaxNeutralBand * 100);
    m_neutralBand->setSingleStep(0.5);
    m_neutralBand->setDecimals(1);
    m_neutralBand->setPrefix(QStringLiteral("\u00b1"));
    m_neutralBand->setSuffix(QStringLiteral(" %"));
    m_neutralBand->setValue(current.neutralBandPercent);
    m_neutralBand->setToolTip(tr("Cluster steps colours a cell by its deviation from the column's median over ranks: "
                                 "within this band it stays neutral, beyond it turns warm (above) or cool (below), "
                                 "full at %1")
                                  .arg(DivergingScale::percent(DivergingScale::kSaturation)));

    auto* form = new QFormLayout;
    form->addRow(tr("Language:"), m_language);
    auto* restart = new QLabel(tr("A new language applies when npuscope is started again."), this);
    restart->setWordWrap(true);
    restart->setEnabled(false);
    form->addRow(QString(), restart);
    form->addRow(tr("Theme:"), m_theme);
    form->addRow(tr("Time unit:"), m_timeUnit);
    form->addRow(tr("Font size:"), m_fontSize);
    form->addRow(tr("Colour neutral band:"), m_neutralBand);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

Appearance::Choices SettingsDialog::choices() const
{
    Appearance::Choices c;
    c.language = m_language->currentData().toString();
    c.theme = static_cast<Appearance::Theme>(m_theme->currentData().toInt());
    c.timeUnit = static_cast<Appearance::TimeUnit>(m_timeUnit->currentData().toInt());
    c.fontPointSize = m_fontSize->value();
    c.neutralBandPercent = m_neutralBand->value();
    return c;
}

} // namespace npuscope::gui
