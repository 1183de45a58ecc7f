"""The Run agent dialog's choices: agent, file, scenario, episodes, step budget, seed, cluster, log.

The form shows a :class:`~studio.model.agents.agent_run.RunChoices` and gives one back; the dialog keeps
them in the studio's settings, so it opens with the last run's choices.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from studio.model.agents.agent_run import (
    AGENTS,
    MAX_EPISODES,
    MAX_SEED,
    MAX_STEPS,
    SANITY,
    MovieAgent,
    PolicyAgent,
    RunChoices,
    sb3_available,
)
from studio.model.agents.run_log import tensorboard_available

AGENT_TIPS = {
    SANITY: "The first check of an integration: random buttons but START and SELECT (every direction, Down too), "
            "each choice held 8 to 30 steps; one episode until done fires. When no episode ended within the step "
            "budget, the run is played again once with twice the steps, and the result says so.",
    "Random": "Every button pressed with probability 1/2 every step, START and SELECT too",
    "Right-biased": "RIGHT held most steps, the jump buttons pressed now and then",
    "Brute": "Replays the best episode so far with a few random changes, then explores",
    "Idle": "Presses nothing: what the scenario rewards when the player does nothing",
}


class AgentForm(QFormLayout):
    """The dialog's choices, as rows of a form.

    Args:
        scenario: The scenario to start with (None: ``scenario.json``).
        parent: The widget the file dialog opens over.
    """

    def __init__(self, scenario: str | None, parent: QWidget | None = None):
        super().__init__()
        self._parent = parent
        self.agent_box = QComboBox()
        for title, cls in AGENTS.items():
            if cls is PolicyAgent and not sb3_available():
                continue
            self.agent_box.addItem(title)
            self.agent_box.setItemData(self.agent_box.count() - 1, AGENT_TIPS.get(title, ""), 3)  # Qt.ToolTipRole
        self.agent_box.currentTextChanged.connect(self._agent_changed)
        self.file_edit = QLineEdit()
        self.file_edit.setPlaceholderText("movie .bk2 or SB3 model .zip")
        self.file_button = QPushButton("Browse...")
        self.file_button.clicked.connect(self._browse)
        file_row = QHBoxLayout()
        file_row.addWidget(self.file_edit)
        file_row.addWidget(self.file_button)
        self.scenario_edit = QLineEdit(scenario or "")
        self.scenario_edit.setPlaceholderText("scenario.json")
        self.episodes_box = QSpinBox()
        self.episodes_box.setRange(1, MAX_EPISODES)
        self.steps_box = QSpinBox()
        self.steps_box.setRange(1, MAX_STEPS)
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, MAX_SEED)
        self.ray_edit = QLineEdit()
        self.ray_edit.setPlaceholderText("empty: play here; host:port of a cluster, or auto")
        self.ray_edit.setToolTip("Play the episodes on this Ray cluster (the same episodes as here, spread over its "
                                 "nodes; the integration is sent along). Needs emucore and Ray on every node.")
        self.tensorboard_box = QCheckBox("Write a TensorBoard log")
        if tensorboard_available():
            self.tensorboard_box.setToolTip("Each episode's return and length, and the run's summary and flags, "
                                            "in the studio's runs/ folder: tensorboard --logdir shows them")
        else:
            self.tensorboard_box.setEnabled(False)
            self.tensorboard_box.setToolTip("Needs torch and tensorboard: pip install -e '.[rl]'")
        self.addRow("Agent", self.agent_box)
        self.addRow("File", file_row)
        self.addRow("Scenario", self.scenario_edit)
        self.addRow("Episodes", self.episodes_box)
        self.addRow("Max steps", self.steps_box)
        self.addRow("Seed", self.seed_box)
        self.addRow("Ray cluster address", self.ray_edit)
        self.addRow("", self.tensorboard_box)
        self.show_choices(RunChoices())

    def show_choices(self, choices: RunChoices) -> None:
        """Shows ``choices`` (an agent this studio cannot offer leaves the first one chosen)."""
        if self.agent_box.findText(choices.agent) >= 0:
            self.agent_box.setCurrentText(choices.agent)
        self._agent_changed(self.agent_box.currentText())
        self.file_edit.setText(choices.file)
        self.episodes_box.setValue(choices.episodes)
        self.steps_box.setValue(choices.max_steps)
        self.seed_box.setValue(choices.seed)
        self.ray_edit.setText(choices.ray_address)
        self.tensorboard_box.setChecked(choices.tensorboard and self.tensorboard_box.isEnabled())

    def choices(self) -> RunChoices:
        """The choices shown."""
        return RunChoices(self.agent_box.currentText(), self.episodes_box.value(), self.steps_box.value(),
                          self.seed_box.value(), self.file_edit.text().strip(), self.ray_edit.text().strip(),
                          self.tensorboard_box.isChecked())

    def _agent_changed(self, title: str) -> None:
        needs_file = AGENTS.get(title) in (MovieAgent, PolicyAgent)
        self.file_edit.setEnabled(needs_file)
        self.file_button.setEnabled(needs_file)
        self.agent_box.setToolTip(AGENT_TIPS.get(title, "Plays the chosen file"))
        if title == SANITY:  # the preset: one episode, until the first done or the step budget
            self.episodes_box.setValue(1)

    def _browse(self) -> None:
        movie = AGENTS.get(self.agent_box.currentText()) is MovieAgent
        pattern = "Movies (*.bk2 *.fm2)" if movie else "SB3 models (*.zip)"
        path, _ = QFileDialog.getOpenFileName(self._parent, "Choose a file", "", pattern)
        if path:
            self.file_edit.setText(path)
