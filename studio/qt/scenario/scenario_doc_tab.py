"""What the scenario editor's tabs share: the document they edit, given again when another game opens."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from studio.model.scenario.scenario_doc import ScenarioDocument


class DocumentTab(QWidget):
    """A tab of the scenario editor over one :class:`ScenarioDocument`.

    Args:
        doc: The document edited (:meth:`bind` gives it another).
        parent: The Qt parent.
    """

    def __init__(self, doc: ScenarioDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc

    def bind(self, doc: ScenarioDocument) -> None:
        """Edits ``doc`` from now on (another game was opened)."""
        self.doc = doc

    def show_document(self) -> None:
        """Shows the document as it is now (after every change to it)."""
        raise NotImplementedError(f"{type(self).__name__} shows no document")
