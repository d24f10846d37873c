"""lit's test format for runtime-tests/: four tests from each case file.

Defined in a module rather than in lit.cfg.py so that lit can hand it to its
worker processes (they unpickle it by module and name). lit.cfg.py says what
the four tests are.
"""

import os
import shlex

import lit.formats
import lit.Test
import lit.TestRunner

import runtime_suite


class StageTest(lit.Test.Test):
    """A test made from a case file rather than read from it."""

    def __init__(self, suite, path_in_suite, config, source, stage):
        super().__init__(suite, path_in_suite, config, file_path=source)
        self.source = source
        self.stage = stage

    def getSourcePath(self):
        return self.source


class RuntimeCaseFormat(lit.formats.ShTest):
    STAGES = {
        "nvcc": (["nvcc"], [
            "%nvcc " + " ".join(runtime_suite.NVCC_ARGS) + " -o %t %s",
        ]),
        # Issue 24: cuda-tidy --repro-dir on the program, each reproducer
        # built (tools/repro/runtime_tests_repro.py); a fixed.cu program
        # must have no finding.
        "repro": (["cuda-toolkit", "nvcc"], [
            "%python " + shlex.quote(os.path.join(
                runtime_suite.SOURCE_ROOT, "tools", "repro",
                "runtime_tests_repro.py")) +
            " --bin %cuda_tidy_obj_root/bin -j 1 %s -o %t",
        ]),
        "gpu": (["gpu", "nvcc"], [
            "%nvcc " + " ".join(runtime_suite.NVCC_ARGS) + " -o %t %s",
            "%python " + shlex.quote(runtime_suite.__file__) +
            " runtime %s %t",
        ]),
    }

    def getTestsForPath(self, testSuite, path_in_suite, litConfig,
                        localConfig):
        for test in super().getTestsForPath(testSuite, path_in_suite,
                                            litConfig, localConfig):
            yield test
            for stage in self.STAGES:
                yield StageTest(testSuite, path_in_suite + (stage,),
                                localConfig, test.getSourcePath(), stage)

    def execute(self, test, litConfig):
        if not isinstance(test, StageTest):
            return super().execute(test, litConfig)
        requires, script = self.STAGES[test.stage]
        test.requires += requires
        missing = test.getMissingRequiredFeatures()
        if missing:
            return lit.Test.Result(
                lit.Test.UNSUPPORTED,
                "Test requires the following unavailable features: %s"
                % ", ".join(missing))
        try:
            case = runtime_suite.parse_case_file(test.source)
        except ValueError as e:
            return lit.Test.Result(lit.Test.UNRESOLVED, str(e))
        # A program of several files builds from all of them.
        sources = "".join(" " + shlex.quote(s) for s in case.sources)
        script = [line.replace(" -o %t %s", " -o %t %s" + sources)
                  for line in script]
        if litConfig.noExecute:
            return lit.Test.Result(lit.Test.PASS)
        tmpDir, tmpBase = lit.TestRunner.getTempPaths(test)
        substitutions = list(self.extra_substitutions)
        substitutions += lit.TestRunner.getDefaultSubstitutions(
            test, tmpDir, tmpBase, normalize_slashes=self.execute_external)
        script = lit.TestRunner.applySubstitutions(
            script, substitutions,
            {feature: True for feature in test.config.available_features},
            recursion_limit=test.config.recursiveExpansionLimit)
        return lit.TestRunner._runShTest(test, litConfig,
                                         self.execute_external, script,
                                         tmpBase)
