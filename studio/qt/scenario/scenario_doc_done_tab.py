"""The scenario editor's Done tab: the done tree of nodes and variable tests, edited in place.

The top item is ``done`` itself; a node's children are its tests (one per variable) and then its
sub-nodes. Columns are the name, the node's condition or the test's op, the reference and the
measurement. Items lint finds something wrong with are tinted, and the findings about done are
listed under the tree.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QInputDialog, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from emucore.integration import LintFinding
from emucore.integration import scenario_walk as walk
from studio.model.scenario.scenario_doc import NodePath, ScenarioDocument
from studio.qt.scenario.scenario_doc_fields import NO_OP, parse_number
from studio.qt.scenario.scenario_doc_lint_marks import finding_tint, findings_text, lint_label, show_lint
from studio.qt.scenario.scenario_doc_tab import DocumentTab


class DoneTreeTab(DocumentTab):
    """The done tree with its buttons (add a node, add a test, remove) and the done findings.

    Every item carries ``(kind, path, name)`` in its user role: ``("node", path, None)`` or
    ``("test", path, variable)``.

    Args: those of :class:`DocumentTab`.
    """

    def __init__(self, doc: ScenarioDocument, parent: QWidget | None = None):
        super().__init__(doc, parent)
        self._in_tree_edit = False
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Node / variable", "Condition / op", "Reference", "Measurement"])
        self.tree.itemChanged.connect(self._tree_edited)
        self.lint = lint_label()
        buttons = QHBoxLayout()
        for title, slot in (("Add node", self._add_node), ("Add test", self._add_test), ("Remove", self._remove_done)):
            button = QPushButton(title)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.lint)
        layout.addLayout(buttons)

    def show_document(self) -> None:
        """The tree and the findings as the document has them now."""
        if self._in_tree_edit:  # the edited item must outlive its own itemChanged signal
            QTimer.singleShot(0, self._fill_tree)
        else:
            self._fill_tree()
        show_lint(self.lint, self.doc.findings_for("done"))

    def _fill_tree(self) -> None:
        tree = self.tree
        tree.blockSignals(True)
        tree.clear()
        root = self.doc.done_node(())
        if root is not None:
            tree.addTopLevelItem(self._node_item(root, ()))
        tree.expandAll()
        for column in range(4):
            tree.resizeColumnToContents(column)
        tree.blockSignals(False)

    def _node_item(self, node: dict, path: NodePath) -> QTreeWidgetItem:
        at = walk.node_path(path)
        key = walk.key(at)
        item = QTreeWidgetItem([path[-1] if path else walk.DONE, "all" if node.get(walk.CONDITION) == "all" else "any"])
        item.setData(0, Qt.ItemDataRole.UserRole, ("node", path, None))
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        own = [f for f in self.doc.findings if f.key in (key, walk.key((*at, walk.CONDITION)))]
        self._decorate(item, own)
        for name, test_path, spec in walk.done_tests(node, at):
            spec = spec if isinstance(spec, dict) else {}
            child = QTreeWidgetItem([name, spec.get(walk.OP, NO_OP), str(spec.get(walk.REFERENCE, 0)),
                                     spec.get(walk.MEASUREMENT, "absolute")])
            child.setData(0, Qt.ItemDataRole.UserRole, ("test", path, name))
            child.setFlags(child.flags() | Qt.ItemFlag.ItemIsEditable)
            self._decorate(child, self.doc.findings_for(walk.key(test_path)))
            item.addChild(child)
        for name, _, sub in walk.done_children(node, at):
            if isinstance(sub, dict):
                item.addChild(self._node_item(sub, (*path, name)))
        return item

    @staticmethod
    def _decorate(item: QTreeWidgetItem, findings: list[LintFinding]) -> None:
        tint = finding_tint(findings)
        if tint is None:
            return
        for column in range(4):
            item.setBackground(column, tint)
            item.setToolTip(column, findings_text(findings))

    # ---- edits ----

    def _selected(self) -> tuple[str, NodePath, str | None]:
        item = self.tree.currentItem()
        if item is None:
            return ("node", (), None)
        return item.data(0, Qt.ItemDataRole.UserRole)

    def _add_node(self) -> None:
        kind, path, _ = self._selected()
        name, ok = QInputDialog.getText(self, "Add done node", "Node name:")
        if ok and name.strip():
            self.doc.add_done_node(path, name.strip())

    def _add_test(self) -> None:
        kind, path, _ = self._selected()
        node = self.doc.done_node(path) or {}
        used = {name for name, _, _ in walk.done_tests(node, walk.node_path(path))}
        free = [name for name in self.doc.variable_names if name not in used]
        if free:
            self.doc.set_done_test(path, free[0], op="equal", reference=0)

    def _remove_done(self) -> None:
        kind, path, name = self._selected()
        if kind == "test" and name is not None:
            self.doc.remove_done_test(path, name)
        elif self.tree.currentItem() is not None:
            self.doc.remove_done_node(path)

    def _tree_edited(self, item: QTreeWidgetItem, column: int) -> None:
        self._in_tree_edit = True
        try:
            self._apply_tree_edit(item, column)
        finally:
            self._in_tree_edit = False

    def _apply_tree_edit(self, item: QTreeWidgetItem, column: int) -> None:
        kind, path, name = item.data(0, Qt.ItemDataRole.UserRole)
        text = [item.text(c).strip() for c in range(4)]
        doc = self.doc
        if kind == "node":
            if column == 1:
                doc.set_done_condition(path, text[1])
            elif column == 0 and path and text[0] and text[0] != path[-1]:
                doc.rename_done_node(path, text[0])
            else:
                QTimer.singleShot(0, self._fill_tree)
            return
        reference = parse_number(text[2], int)
        op = None if text[1] in ("", NO_OP) else text[1]
        if column == 0 and text[0] != name:
            doc.remove_done_test(path, name)
            name = text[0]
        doc.set_done_test(path, name, op=op, reference=reference or 0, measurement=text[3] or "absolute")
