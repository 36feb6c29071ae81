"""Output clashes between the projects of one watch pass: two projects that would write one file.

Within one project a render refuses items that name one file (supervisor/render/plan.py); across
projects nothing else would, and the project rendered later (by this node, or at the same time
by another) would replace the earlier one's output, or mix frames of both into one sequence.
So before a pass renders anything, the files of every project it would render are compared,
named exactly as their renders will name them (protocol/model/output_names.py's `queue_outputs`,
which the render plans use too), and each project that shares a file with another is not
rendered; its sentence names both projects and one shared file.

Pure: documents in, sentences out; nothing here looks at the disk.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.model.output_names import queue_outputs


@dataclass(frozen=True)
class ProjectClash:
    first: str  # the earlier project in the pass's order
    second: str
    path: str  # one file both would write
    shared: int  # how many files both would write

    @property
    def message(self) -> str:
        more = f" (and {self.shared - 1} more)" if self.shared > 1 else ""
        return (f"{self.first} and {self.second} both render {self.path}{more}, so one would "
                "overwrite the other; neither is rendered: give one of them another output "
                "(both render once they no longer share a file).")

    def other(self, project: str) -> str:
        return self.second if project == self.first else self.first


def project_files(document: dict) -> set[str]:
    """Every file the document's render queue writes, all items taken as queued."""
    files: set[str] = set()
    for planned in queue_outputs(document):
        files |= planned.files()
    return files


def find_clashes(files_by_project: dict[str, set[str]]) -> dict[str, ProjectClash]:
    """For every project sharing a file with another, its clash with the first such project
    (in the mapping's order): one pass over the files, however many projects there are."""
    owner: dict[str, str] = {}
    shared: dict[tuple[str, str], list[str]] = {}
    for project, files in files_by_project.items():
        for path in files:
            first = owner.setdefault(path, project)
            if first != project:
                shared.setdefault((first, project), []).append(path)
    order = {project: index for index, project in enumerate(files_by_project)}
    found: dict[str, ProjectClash] = {}
    for (first, second), paths in sorted(shared.items(),
                                         key=lambda pair: (order[pair[0][0]], order[pair[0][1]])):
        clash = ProjectClash(first, second, min(paths), len(paths))
        found.setdefault(first, clash)
        found.setdefault(second, clash)
    return found
