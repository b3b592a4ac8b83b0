"""Account forms: log-in and sign-up (allauth's, with this site's labels and a display name),
a new API token, the display name, the e-mails a person gets."""

from __future__ import annotations

from allauth.account import forms as allauth_forms
from django import forms
from django.core.exceptions import ValidationError

from accounts.models import EmailKind, EmailPreferences
from league.clubs import services as league_services
from league.models import Player

# Django's password validators (settings.AUTH_PASSWORD_VALIDATORS), in one sentence.
PASSWORD_HELP = (
    "At least 8 characters, not only digits, not a common password and not too "
    "like your username or e-mail."
)
DISPLAY_NAME_HELP = "The name standings and results show. Your username if you leave it empty."


class LoginForm(allauth_forms.LoginForm):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = "Username or e-mail"
        self.fields["login"].widget.attrs.pop("placeholder", None)
        self.fields["password"].widget.attrs.pop("placeholder", None)
        self.fields["password"].help_text = ""


def _check_display_name(name: str, *, player: Player | None = None) -> str:
    # Names are unique within each league, not site-wide: the rename service checks the leagues
    # this player is in, and says which one has the name. A site-wide "taken" would tell anyone
    # the names of guests in private leagues.
    return name.strip()


class SignupForm(allauth_forms.SignupForm):
    display_name = forms.CharField(
        label="Display name", max_length=100, required=False, help_text=DISPLAY_NAME_HELP
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs.pop("placeholder", None)
        self.fields["email"].label = "E-mail"
        self.fields["email"].help_text = "For resetting your password; never shown to others."
        self.fields["password1"].help_text = PASSWORD_HELP

    def clean_display_name(self) -> str:
        return _check_display_name(self.cleaned_data.get("display_name", ""))

    def save(self, request):
        user = super().save(request)
        if user is not None and self.cleaned_data.get("display_name"):
            league_services.player_create(
                name=self.cleaned_data["display_name"], user=user, by=user
            )
        return user


class DisplayNameForm(forms.Form):
    name = forms.CharField(label="Display name", max_length=100, help_text=DISPLAY_NAME_HELP)

    def __init__(self, *args, player: Player | None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.player = player

    def clean_name(self) -> str:
        name = _check_display_name(self.cleaned_data["name"], player=self.player)
        if not name:
            raise ValidationError("A display name cannot be empty.")
        return name


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label="Token name",
        max_length=60,
        help_text="What will use it, e.g. “my-bot uploader” or “laptop”.",
    )

    def __init__(self, *args, **kwargs) -> None:
        # Its own ids: the display-name form on the same page also has a "name" field.
        kwargs.setdefault("auto_id", "id_token_%s")
        super().__init__(*args, **kwargs)


class EmailPreferencesForm(forms.Form):
    """One box per kind of e-mail; an unticked box turns that kind off."""

    def __init__(self, *args, preferences: EmailPreferences, **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_email_%s")
        super().__init__(*args, **kwargs)
        for kind in EmailKind:
            self.fields[kind.value] = forms.BooleanField(
                label=kind.label, required=False, initial=preferences.wants(kind)
            )
