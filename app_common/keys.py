"""Session-state keys shared by the presenter, the predictions and the URL check."""

from __future__ import annotations

GO_KEY = "ls_go"  # a presenter move asked for by a button's callback, made by present_lesson


SHOWN_STEP_KEY = "presenter_step"  # (lesson, step) whose settings this session has taken (present_lesson)


# the Prediction.key the presented step asks in this script run, None on a presented step that asks none;
# absent outside a presentation (present_lesson sets it, predict and answers_held read it)
ASKING_KEY = "presenter_asks"


ANSWERED_KEY = "predictions_answered"  # (Prediction.key, settings signature) -> the guess committed, this session


RESYNC_KEY = "presenter_resync"  # the widget-key prefix of a step's page just entered, until its widgets are resent
