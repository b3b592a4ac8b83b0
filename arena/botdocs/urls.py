"""/arena/docs/: included by arena/urls.py, so the names are the arena's (``arena:docs``)."""

from django.urls import path

from arena.botdocs import views

urlpatterns = [
    path("", views.docs_page, name="docs"),
    path("starter-kit.zip", views.starter_kit, name="starter-kit"),
    path("<slug:slug>/", views.docs_page, name="docs-page"),
]
