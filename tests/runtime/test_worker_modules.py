"""The one list of modules of tasks (workers/tasks.py's TASK_MODULES): what the worker loop
imports and what the forkserver preloads."""

import pathlib
import subprocess
import sys

from supervisor.runtime.pool import WORKER_MODULES
from workers.tasks import TASK_MODULES

ROOT = pathlib.Path(__file__).resolve().parents[2]


def modules_that_register_tasks() -> set[str]:
    """Every module under workers/ that declares a task, but the registry itself (whose "noop"
    comes with the import every task module makes)."""
    registry = ROOT / "workers" / "tasks.py"
    return {".".join(path.relative_to(ROOT).with_suffix("").parts)
            for path in (ROOT / "workers").rglob("*.py")
            if path != registry and "@task(" in path.read_text()}


def test_every_module_that_defines_tasks_is_on_the_one_list():
    assert modules_that_register_tasks() == set(TASK_MODULES)


def test_the_forkserver_preloads_the_worker_loop_and_every_module_of_tasks():
    assert set(WORKER_MODULES) == {"workers.worker_main", *TASK_MODULES}


def test_a_worker_started_without_a_preload_knows_every_task_a_preloaded_one_knows():
    """What the worker loop imports itself (workers/worker_main.py) against every module that
    defines tasks: a layout check must not depend on the forkserver having preloaded it."""
    script = ("import workers.worker_main, workers.tasks as t\n"
              "for m in t.TASK_MODULES: __import__(m)\n"
              "before = set(t.TASKS)\n"
              "import sys\n"
              "for m in sys.argv[1:]: __import__(m)\n"
              "print(sorted(set(t.TASKS) - before))\n")
    found = subprocess.run([sys.executable, "-c", script, *sorted(modules_that_register_tasks())],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "[]"
