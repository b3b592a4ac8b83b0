"""The account page, beside django-allauth's pages under /accounts/."""

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("me/", views.account, name="home"),
    path("me/name/", views.display_name, name="display-name"),
    path("me/tokens/", views.token_create, name="token-create"),
    path("me/tokens/<int:token_id>/revoke/", views.token_revoke, name="token-revoke"),
    path("me/emails/", views.email_preferences, name="email-preferences"),
    # The link in every e-mail: signed, so it works without logging in.
    path("emails/<str:token>/", views.email_link, name="email-link"),
]
