from django.conf import settings


def signup(request):
    """Whether pages may offer "Create an account" (CATLEAGUE_SIGNUP)."""
    return {"signup_mode": settings.CATLEAGUE_SIGNUP}
