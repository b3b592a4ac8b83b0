"""Forms of a new bot and a new version. They only read the input; the checks that make a bot
acceptable live in ``arena.submissions.services`` and come back as field errors."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from arena.runner import MAX_BOT_BYTES
from arena.submissions.services import check_size, size_in_words
from arena.web import apply_service_errors, game_choices

BOT_FILE_HELP = (
    f"One Python UTF-8 text file (standard library only), at most {size_in_words(MAX_BOT_BYTES)}, defining "
    "choose(observation, legal_actions). It is checked, then plays a validation match "
    "against the house bot before it joins the ladders."
)


class BotFileField(forms.FileField):
    """Reads the uploaded file's bytes, never more than one byte past the limit: a file over
    it is refused by the size it declares, so the message says how big it really is."""

    def clean(self, data: Any, initial: Any = None) -> bytes | None:
        upload = super().clean(data, initial)
        if upload is None:
            return None
        try:
            check_size(upload.size)
        except ValidationError as error:
            raise ValidationError(error.message_dict["source"]) from None
        upload.seek(0)
        head: bytes = upload.read(MAX_BOT_BYTES + 1)  # the stubs type File.read as Any
        return head


class VersionUploadForm(forms.Form):
    file = BotFileField(
        label="Bot file",
        help_text=BOT_FILE_HELP,
        widget=forms.ClearableFileInput(attrs={"accept": ".py,text/x-python"}),
    )

    def apply_service_errors(self, error: ValidationError) -> None:
        apply_service_errors(self, error)


class BotCreateForm(VersionUploadForm):
    name = forms.SlugField(
        label="Name",
        max_length=60,
        help_text="Letters, digits, hyphens and underscores; shown on the ladders.",
    )
    game = forms.ChoiceField(
        label="Game",
        choices=game_choices,
        initial="cat-lady",
        required=False,  # Cat Lady when not given
        help_text="The game the bot plays: its validation match, ladders and challenges.",
    )
    description = forms.CharField(
        label="Description",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    field_order = ["name", "game", "description", "file"]
