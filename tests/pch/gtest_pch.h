#pragma once
// Precompiled once for every GoogleTest suite (lockscope_gtest_pch): GoogleTest's header
// and the standard headers (see lib/pch/std_pch.h for why and the rules). GoogleTest's
// header with them was 1.8 s of a test file's 3-6 s of compile time.

#include <gtest/gtest.h>

#include "../../lib/pch/std_pch.h"
