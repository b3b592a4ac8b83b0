"""The triage page's one question: which other version of the same bot to compare with."""

from __future__ import annotations

from typing import Any

from django import forms

from arena.models import BotVersion


class AgainstForm(forms.Form):
    against = forms.TypedChoiceField(
        label="Head-to-head against",
        coerce=int,
        help_text="Another version of the same bot; its matches against this one are counted.",
    )

    def __init__(self, *args: Any, others: list[BotVersion], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.others = {version.number: version for version in others}
        field = self.fields["against"]
        assert isinstance(field, forms.TypedChoiceField)  # declared as one above
        field.choices = [(number, f"v{number}") for number in self.others]

    def chosen(self) -> BotVersion | None:
        """The version asked for, once the form is valid."""
        return self.others.get(self.cleaned_data["against"]) if self.is_valid() else None
