"""The scenario editor's "Actions & crop" tab: the crop rectangle and the action groups (as JSON)."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QSizePolicy, QSpinBox, QVBoxLayout, QWidget

from emucore.integration import SCENARIO_FILE, LintFinding
from studio.model.scenario.scenario_doc import ScenarioDocument
from studio.qt.scenario.scenario_doc_lint_marks import lint_label, show_lint
from studio.qt.scenario.scenario_doc_tab import DocumentTab


class CropActionsTab(DocumentTab):
    """Four boxes for the crop and a line of JSON for the action groups, each with its findings under it.

    Args: those of :class:`DocumentTab`.
    """

    def __init__(self, doc: ScenarioDocument, parent: QWidget | None = None):
        super().__init__(doc, parent)
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.crop_boxes: list[QSpinBox] = []
        for title in ("x", "y", "width", "height"):
            box = QSpinBox()
            box.setRange(0, 4096)
            box.editingFinished.connect(self._crop_edited)
            row.addWidget(QLabel(title))
            row.addWidget(box)
            self.crop_boxes.append(box)
        layout.addWidget(QLabel("Crop (0 width/height: to the edge)"))
        layout.addLayout(row)
        self.crop_lint = lint_label()
        layout.addWidget(self.crop_lint)
        hint = 'Actions: JSON groups of combos, e.g. [[[], ["UP"]], [[], ["START"]]] (empty: the system\'s)'
        hint_label = QLabel(hint)
        hint_label.setWordWrap(True)  # a long hint wraps rather than widening the dock
        hint_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(hint_label)
        self.actions_edit = QLineEdit()
        self.actions_edit.editingFinished.connect(self._actions_edited)
        layout.addWidget(self.actions_edit)
        self.actions_lint = lint_label()
        layout.addWidget(self.actions_lint)
        layout.addStretch(1)

    def show_document(self) -> None:
        """The crop, the actions and their findings as the document has them now."""
        doc = self.doc
        for box, value in zip(self.crop_boxes, doc.crop, strict=True):
            box.setValue(int(value))
        self.actions_edit.setText(json.dumps(doc.actions) if doc.actions else "")
        show_lint(self.crop_lint, doc.findings_for("crop") + doc.findings_for("crops"))
        show_lint(self.actions_lint, doc.findings_for("actions"))

    def _crop_edited(self) -> None:
        crop = [box.value() for box in self.crop_boxes]
        if crop != self.doc.crop:
            self.doc.set_crop(crop)

    def _actions_edited(self) -> None:
        text = self.actions_edit.text().strip()
        try:
            groups = json.loads(text) if text else None
        except json.JSONDecodeError as e:
            show_lint(self.actions_lint, [LintFinding("error", SCENARIO_FILE, "actions", f"not JSON: {e}")])
            return
        if groups != self.doc.actions:
            self.doc.set_actions(groups)
