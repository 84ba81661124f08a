# -*- Python -*- lit configuration for Tessel's GoogleTest unit tests: every *Test executable
# under the build's unittests/ directory, each test case counted on its own.
import os

import lit.formats

config.name = "Tessel-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.tessel_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Test")
