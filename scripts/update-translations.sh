#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Updates translations/npuscope_*.ts from the tr() strings of src/gui and src/app, the metric definitions and the
# query strings and import problems the GUI translates (QT_TRANSLATE_NOOP in src/query, src/io, src/load; lupdate,
# Debian qt6-l10n-tools)
# and prints what is unfinished (lrelease). lupdate's C++ parser does not follow `namespace npuscope::gui {`, so it
# names a context "MainWindow" where tr() looks up "npuscope::gui::MainWindow": the script strips the namespace before
# lupdate (so existing translations match) and puts it back after, for every context that is a Q_OBJECT class.
set -euo pipefail
cd "$(dirname "$0")/.."
QT_BIN=${QT_BIN:-/usr/lib/qt6/bin}
# The Q_OBJECT classes: every header's name, and every class whose declaration line is followed by Q_OBJECT (a header
# may hold several, e.g. statistics/StatisticsTableModels.h).
qobjects=$( (grep -rl 'Q_OBJECT' include/npuscope/gui | xargs -n1 basename | sed 's/\.h$//';
  grep -rh -A1 '^class [A-Za-z]* ' include/npuscope/gui | awk '/^class /{c=$2} /Q_OBJECT/{print c}') | sort -u)
for ts in translations/npuscope_*.ts; do
  sed -i 's#<name>npuscope::gui::\([A-Za-z]*\)</name>#<name>\1</name>#' "$ts"
  "$QT_BIN/lupdate" -silent -no-obsolete -locations none src/gui src/app src/query/MetricDefinitions.cpp src/query/RankMetricQuery.cpp \
    src/query/ParallelLayout.cpp src/query/ParallelLayoutQuery.cpp src/query/FlopsQuery.cpp src/query/BlameAnalysis.cpp src/query/MemoryDetailQuery.cpp \
    src/query/OperatorQuery.cpp src/query/MareyStep.cpp src/query/advice src/io src/load -ts "$ts" 2>&1 | grep -v "Qualifying with unknown\|undeclared qualified" || true
  for name in $qobjects; do
    sed -i "s#<name>${name}</name>#<name>npuscope::gui::${name}</name>#" "$ts"
  done
  "$QT_BIN/lrelease" "$ts" -qm /dev/null
done
