"""The scenario editor's Lua tab: the scripts the scenario lists, and an editor for each.

The text is compiled on demand (Check) and written on Save; a syntax error, or an error the
script raises when it is loaded, marks its line and is explained under the editor.
"""

from __future__ import annotations

from PySide6.QtGui import QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from emucore.integration import IntegrationError
from studio.model.scenario.scenario_doc import ScenarioDocument
from studio.qt.scenario.scenario_doc_lint_marks import ERROR_TINT, findings_text, lint_label
from studio.qt.scenario.scenario_doc_tab import DocumentTab


class LuaTab(DocumentTab):
    """The list of scripts, a choice of the one shown, its text, and its errors under it.

    Attributes:
        error_line: The line marked as the error's (1 is the first), or None.

    Args: those of :class:`DocumentTab`.
    """

    def __init__(self, doc: ScenarioDocument, parent: QWidget | None = None):
        super().__init__(doc, parent)
        self.error_line: int | None = None
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Scripts:"))
        self.scripts_edit = QLineEdit()
        self.scripts_edit.setPlaceholderText("script.lua, other.lua")
        self.scripts_edit.editingFinished.connect(self._scripts_edited)
        row.addWidget(self.scripts_edit, 1)
        self.script_choice = QComboBox()
        self.script_choice.currentTextChanged.connect(self._show_script)
        row.addWidget(self.script_choice)
        layout.addLayout(row)
        self.lua = QPlainTextEdit()
        self.lua.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.lua.setPlaceholderText("-- Lua: function reward() return data.score end")
        layout.addWidget(self.lua, 1)
        self.status = lint_label()
        layout.addWidget(self.status)
        buttons = QHBoxLayout()
        check, save = QPushButton("Check"), QPushButton("Save")
        check.clicked.connect(self.check_lua)
        save.clicked.connect(self.save_lua)
        buttons.addWidget(check)
        buttons.addWidget(save)
        buttons.addStretch(1)
        layout.addLayout(buttons)

    def show_document(self) -> None:
        """The scripts as the document lists them; the script shown stays unless it is no longer listed."""
        doc = self.doc
        self.scripts_edit.setText(", ".join(doc.scripts))
        current = self.script_choice.currentText()
        self.script_choice.blockSignals(True)
        self.script_choice.clear()
        self.script_choice.addItems(doc.scripts)
        if current in doc.scripts:
            self.script_choice.setCurrentText(current)
        self.script_choice.blockSignals(False)
        if self.lua.toPlainText() == "" or current not in doc.scripts:
            self._show_script(self.script_choice.currentText())
        self.show_findings()

    def _scripts_edited(self) -> None:
        names = [n.strip() for n in self.scripts_edit.text().split(",") if n.strip()]
        if names != self.doc.scripts:
            self.doc.set_scripts(names)

    def _show_script(self, name: str) -> None:
        self.lua.setPlainText(self.doc.lua_source(name) if name else "")
        self.show_findings()

    def check_lua(self) -> None:
        """Compiles the editor's text and marks the line of the error, if any."""
        name = self.script_choice.currentText() or "script.lua"
        error = self.doc.check_lua(self.lua.toPlainText(), name)
        self._mark_error(error.line if error else None, error.message if error else "no syntax error")

    def save_lua(self) -> None:
        """Writes the editor's text to the script shown (none is written outside the integration folder)."""
        name = self.script_choice.currentText()
        try:
            if name:
                self.doc.set_lua_source(name, self.lua.toPlainText())
        except IntegrationError as exc:  # a script outside the integration folder is not written
            self._mark_error(None, f"error: {exc}")

    def show_findings(self) -> None:
        """The findings about the script shown, its error's line marked."""
        name = self.script_choice.currentText()
        error = self.doc.lua_errors.get(name) or self.doc.live.load_errors.get(name)
        findings = [f for f in self.doc.findings if f.file == name or f.key.startswith("scripts")]
        if error is not None:
            self._mark_error(error.line, findings_text(findings))
        else:
            self._mark_error(None, findings_text(findings))

    def _mark_error(self, line: int | None, message: str) -> None:
        selections = []
        if line:
            selection = QTextEdit.ExtraSelection()
            selection.format.setBackground(ERROR_TINT)
            selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            cursor = QTextCursor(self.lua.document().findBlockByLineNumber(line - 1))
            selection.cursor = cursor
            selections.append(selection)
        self.lua.setExtraSelections(selections)
        self.status.setText(message)
        self.status.setStyleSheet("color: #c62828;" if line or "error" in message else "color: #2e7d32;")
        self.status.setVisible(bool(message))
        self.error_line = line
