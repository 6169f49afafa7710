#pragma once
// Precompiled for the window tests (tests/ui): qt_widgets_pch.h and QtTest's headers, built
// once and reused by every test that links the widgets (see qt_core_pch.h for the rules).

#include "qt_widgets_pch.h"

#include <QFile>
#include <QListWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
