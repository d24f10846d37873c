# -*- Python -*-
# lit configuration for test/: check tests (checkers/), plugin loading
# (plugin/) and the test harness itself (harness/). A trimmed copy of
# clang-tools-extra/test/lit.cfg.py; what test/ and runtime-tests/ share is
# in lit_common.py.

import os
import sys

config.name = "cuda-tidy"
config.suffixes = [".cu", ".cpp", ".test"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

sys.path.insert(0, config.test_source_root)
import lit_common

lit_common.configure(config, lit_config)
