"""The owner's choice after (or during) a gauntlet."""

from __future__ import annotations

from django import forms


class DecisionForm(forms.Form):
    ACTIONS = [
        ("promote", "Promote the new version"),
        ("keep", "Keep the old one"),
        ("rule", "Set the rule"),
    ]

    action = forms.ChoiceField(choices=ACTIONS)
    promote_when_not_worse = forms.BooleanField(
        required=False,
        label="Promote when not worse",
        help_text=(
            "When the gauntlet ends, promote the new version if its win rate against the "
            "version it replaces has a 95% upper bound of at least 50% (not shown worse)."
        ),
    )
