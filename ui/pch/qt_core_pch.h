#pragma once
// Precompiled for the QtCore-only ui targets (models, session): the Qt and standard headers
// most of their files include anyway. Parsing Qt's headers was 3-7 s of each ui file's 4-14 s
// of compile time; precompiled once per target, a fresh build is minutes shorter (issue 32).
// Only headers that never change belong here: a change to one rebuilds the whole target.
// Every file still includes what it uses (clang-tidy compiles them without this header).

#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <deque>

#include "../../lib/pch/std_pch.h"
