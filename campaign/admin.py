"""The moderator's admin: campaigns with their dashboard, memberships, turns and the audit log;
and the admin classes a game's tables are registered with by its app (naval: fleets/admin.py):
scoped to the moderator's campaigns, every edit audited with its reason."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils.html import format_html
from django.utils.text import Truncator

from campaign import dashboard, rulesets
from campaign.memberships import membership_audit, membership_shown
from campaign.models import ArchivedResult, AuditEntry, Campaign, Membership, Turn
from campaign.rulesets import UnknownRuleset, campaign_file_importer, ruleset_of
from campaign.scenario_files import check_size, described, read_scenario_document
from engine.kernel.problems import ScenarioError


class OneCampaignForm(forms.ModelForm):
    """Every object a form links to belongs to the edited object's campaign: a fleet's owner, a
    port's province, a membership's faction … (the choices offered are limited to the user's
    campaigns, but a posted id can name any row; a moderator of two campaigns could mix them)."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        campaign_id = _campaign_id_of(self.instance, cleaned)
        if campaign_id is None:
            return cleaned
        for name, value in list(cleaned.items()):
            linked = value if isinstance(value, QuerySet) else [value]
            if any(_belongs_elsewhere(item, campaign_id) for item in linked):
                self.add_error(name, "That belongs to another campaign (another_campaign).")
        return cleaned


def _campaign_id_of(instance: Model, cleaned: dict[str, Any]) -> int | None:
    if isinstance(instance, Campaign):
        return instance.pk
    chosen = cleaned.get("campaign")
    if isinstance(chosen, Campaign):
        return int(chosen.pk)
    if getattr(instance, "campaign_id", None) is not None:
        return int(instance.campaign_id)  # type: ignore[attr-defined]
    # A new row in its parent's inline (a naval ship in its fleet's) has no campaign yet: its
    # first link to a row of a campaign (the parent, which the inline sets first) says which.
    for link in instance._meta.concrete_fields:
        parent = link.related_model if link.many_to_one else None
        parent_id = getattr(instance, link.attname) if parent is not None else None
        if parent_id is not None and any(f.name == "campaign" for f in parent._meta.fields):
            return (
                parent._default_manager.filter(pk=parent_id)
                .values_list("campaign_id", flat=True)
                .first()
            )
    return None


def _belongs_elsewhere(value: Any, campaign_id: int) -> bool:
    if isinstance(value, Campaign) or not isinstance(value, Model):
        return False
    owner = getattr(value, "campaign_id", None)
    return owner is not None and owner != campaign_id


class ReasonForm(OneCampaignForm):
    """Every manual edit of the world says why (it goes to the audit log with the changes)."""

    reason = forms.CharField(
        max_length=500,
        help_text="Why this change? Recorded in the audit log.",
        widget=forms.TextInput(attrs={"size": 60}),
    )


class ModeratorScoped(admin.ModelAdmin):
    """A moderator sees and edits only the campaigns they moderate (a superuser, all): the lists,
    the change pages, and the campaigns offered in forms."""

    campaign_path = "campaign"  # how this model reaches its campaign

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rows = super().get_queryset(request)
        if getattr(request.user, "is_superuser", False):
            return rows
        return rows.filter(**{f"{self.campaign_path}__in": moderated_campaigns(request)})

    # A moderator needs no model permissions: moderating a campaign is the permission.
    def _moderates(self, request: HttpRequest, obj: Any = None) -> bool:
        user = request.user
        if getattr(user, "is_superuser", False):
            return True
        if not getattr(user, "is_staff", False):
            return False
        if obj is None:
            return moderated_campaigns(request).exists()
        return self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._moderates(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._moderates(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._moderates(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._moderates(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._moderates(request, obj)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        _offer(kwargs, db_field, request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        _offer(kwargs, db_field, request)
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_list_filter(self, request: HttpRequest) -> Any:
        """Filters by a related row (campaign, owner, user …) offer only the rows that appear in
        the user's own list, not every campaign's names."""
        return [
            (name, admin.RelatedOnlyFieldListFilter) if name in RELATED_FILTERS else name
            for name in super().get_list_filter(request)
        ]


# list_filter names that are links to other rows (the rest are a model's own choices).
RELATED_FILTERS = frozenset({"campaign", "turn__campaign", "owner", "faction", "user"})


def choices_for(db_field: Any, request: HttpRequest) -> QuerySet[Any] | None:
    """The rows a form offers for a link: those of the campaigns the user moderates (all, for a
    superuser); None for links that are not into a campaign (users)."""
    model = db_field.remote_field.model
    rows = model._default_manager.all()
    if getattr(request.user, "is_superuser", False):
        return rows
    if model is Campaign:
        return moderated_campaigns(request)
    if any(f.name == "campaign" for f in model._meta.fields):
        return rows.filter(campaign__in=moderated_campaigns(request))
    return None


def _offer(kwargs: dict[str, Any], db_field: Any, request: HttpRequest) -> None:
    rows = choices_for(db_field, request)
    if rows is not None and "queryset" not in kwargs:
        kwargs["queryset"] = rows


class ScopedInline(admin.TabularInline):
    """An inline of a scoped admin: the same limits on what its links offer, and the same
    permission — moderating the parent object's campaign (no model permissions needed)."""

    form = OneCampaignForm

    def _moderates(self, request: HttpRequest, obj: Any = None) -> bool:
        parent = self.admin_site._registry[self.parent_model]
        return bool(parent._moderates(request, obj))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._moderates(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._moderates(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._moderates(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._moderates(request, obj)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        _offer(kwargs, db_field, request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


def moderated_campaigns(request: HttpRequest) -> QuerySet[Campaign]:
    return Campaign.objects.filter(
        memberships__user=request.user, memberships__role=Membership.Role.MODERATOR
    )


class AuditedAdmin(ModeratorScoped):
    """Saves write an audit entry: who, which fields, old and new values, and why."""

    form = ReasonForm

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        before = type(obj).objects.filter(pk=obj.pk).values().first() if change else {}
        super().save_model(request, obj, form, change)
        changed = {
            name: [
                str(before.get(name, before.get(f"{name}_id", ""))),
                str(form.cleaned_data[name]),
            ]
            for name in form.changed_data
            if name != "reason"
        }
        AuditEntry.objects.create(
            campaign=_campaign_of(obj),
            user=request.user,
            action=f"edit {type(obj)._meta.verbose_name}",
            reason=form.cleaned_data["reason"],
            detail={"object": str(obj), "changes": changed},
        )

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        self._audit_deletion(request, [obj])
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        self._audit_deletion(request, list(queryset))
        super().delete_queryset(request, queryset)

    def _audit_deletion(self, request: HttpRequest, objs: list[Any]) -> None:
        """A deletion is recorded like an edit, with the row's last values; Django's delete page
        asks no reason. A deleted campaign takes its audit log with it, so it records nothing."""
        AuditEntry.objects.bulk_create(
            AuditEntry(
                campaign=_campaign_of(obj),
                user=request.user,
                action=f"delete {type(obj)._meta.verbose_name}"[:40],
                detail={
                    "object": str(obj),
                    "values": {
                        f.attname: str(getattr(obj, f.attname)) for f in obj._meta.concrete_fields
                    },
                },
            )
            for obj in objs
            if not isinstance(obj, Campaign)
        )


def _campaign_of(obj: Model) -> Campaign:
    return obj if isinstance(obj, Campaign) else obj.campaign  # type: ignore[attr-defined]


@admin.register(Campaign)
class CampaignAdmin(AuditedAdmin):
    campaign_path = "pk"
    list_display = ("name", "slug", "turn_status", "dashboard_link")
    fields = (
        "name",
        "slug",
        "description",
        "auto_resolve",
        "turn_hours",
        "reminder_hours",
        "webhook_url",
        "language",
        "reason",
    )

    change_list_template = "admin/campaign/campaign_changelist.html"

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "language" and field is not None:
            # A form that posts no language (an older page, a script) keeps the campaign's; a
            # blank one is English, the default (issue 22).
            field.required = False
            field.empty_value = "en"
        return field

    # Django 6's default for a URL typed without a scheme (webhooks are https anyway).
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    def import_view(self, request: HttpRequest) -> Any:
        """A new campaign from a campaign file (docs/campaign-format.md), with every problem
        listed with its place in the file if it is not valid."""
        problems: list[str] = []
        text: str | None = None
        if request.method == "POST" and request.FILES.get("file"):
            upload = request.FILES["file"]
            try:
                check_size(upload.name or "", upload.size or 0)  # before reading any of it
                text = upload.read().decode("utf-8")
                document = read_scenario_document(upload.name or "", text)
                importer = campaign_file_importer(document)  # by the file's ruleset's app
                if importer is None:
                    raise ValueError("No installed ruleset reads campaign files.")
                campaign = importer(document, request.user)  # type: ignore[arg-type]
            except UnicodeDecodeError:
                problems = ["The file is not UTF-8 text."]
            except ScenarioError as error:
                problems = described(error.problems, text)
            except ValueError as error:
                problems = [str(error)]
            else:
                Membership.objects.get_or_create(
                    user=request.user,
                    campaign=campaign,
                    defaults={"role": Membership.Role.MODERATOR},
                )
                messages.success(request, f"Imported {campaign.name}.")
                return HttpResponseRedirect(f"../{campaign.pk}/dashboard/")
        context = {
            **self.admin_site.each_context(request),
            "title": "Import a campaign",
            "problems": problems,
        }
        return render(request, "admin/campaign/import.html", context)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:  # issue 11: a campaign made here is its maker's to moderate
            Membership.objects.get_or_create(
                user=request.user, campaign=obj, defaults={"role": Membership.Role.MODERATOR}
            )

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Any staff user may make a campaign (and so become its moderator), as on the site's
        new-campaign page; the other models need a campaign moderated already."""
        return bool(getattr(request.user, "is_staff", False)) or super().has_add_permission(request)

    def response_add(self, request: HttpRequest, obj: Any, post_url_continue: Any = None) -> Any:
        """To the new campaign's dashboard, where its world is built (issue 11)."""
        if "_addanother" in request.POST or "_continue" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        self.message_user(request, f"{obj.name} is made: you are its moderator.")
        return HttpResponseRedirect(f"../{obj.pk}/dashboard/")

    @admin.display(description="current turn")
    def turn_status(self, campaign: Campaign) -> str:
        turn = campaign.current_turn
        return f"{turn.number}: {turn.status}" if turn else "—"

    @admin.display(description="")
    def dashboard_link(self, campaign: Campaign) -> str:
        return format_html('<a href="{}/dashboard/">Dashboard</a>', campaign.pk)

    def get_urls(self) -> list[URLPattern]:
        site = self.admin_site

        def page(view: Any) -> Any:
            def wrapped(request: HttpRequest, **kwargs: Any) -> Any:
                if view is dashboard.dashboard:
                    kwargs["admin_context"] = site.each_context(request)
                return view(request, **kwargs)

            return site.admin_view(wrapped)

        return [
            path(
                "<int:campaign_id>/dashboard/", page(dashboard.dashboard), name="campaign_dashboard"
            ),
            path(
                "<int:campaign_id>/turn/<str:action>/",
                page(dashboard.turn_action),
                name="campaign_turn_action",
            ),
            path(
                "<int:campaign_id>/turn/<int:turn_id>/progress/",
                page(dashboard.progress),
                name="campaign_turn_progress",
            ),
            # Each game's own moderator actions (naval: the pirates' orders, an order for any
            # faction), under the campaign's dashboard.
            *(
                path(f"<int:campaign_id>/{route}", page(view), name=name)
                for ruleset in rulesets.ruleset_all()
                for route, view, name in ruleset.moderator_views()
            ),
            path("import/", page(self.import_view), name="campaign_import"),
            *super().get_urls(),
        ]


class MembershipForm(ReasonForm):
    """The player is named by their user name, typed: a list to choose from would show a
    moderator every account on the site. A change says why (the audit log keeps it)."""

    user = forms.ModelChoiceField(
        queryset=get_user_model().objects.all(),
        to_field_name="username",
        widget=forms.TextInput,
        label="User name",
        help_text="The account's user name, as the player logs in with it.",
        error_messages={
            "invalid_choice": "There is no account with that user name (no_such_user)."
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The form's initial value is the user's id (the model's column); the field reads a user
        # name. Shown as the id, a form saved unchanged named whoever is called "17" (issue 11).
        if self.instance.pk is not None and self.instance.user_id is not None:
            self.initial["user"] = self.instance.user.get_username()

    def clean(self) -> dict[str, Any]:
        """The campaign's ruleset says whether the membership fits its game (issue 10: a naval
        player plays a faction; a seafaring seat is given on the game's dashboard)."""
        cleaned = super().clean()
        campaign = cleaned.get("campaign") or getattr(self.instance, "campaign", None)
        if not isinstance(campaign, Campaign) or self.errors:
            return cleaned
        proposed = Membership(
            pk=self.instance.pk,
            user=cleaned.get("user"),
            campaign=campaign,
            role=cleaned.get("role") or "",
            faction=cleaned.get("faction"),
        )
        try:
            problem = ruleset_of(campaign).membership_problem(proposed)
        except UnknownRuleset as error:
            problem = str(error)
        if problem:
            self.add_error(None, problem)
        return cleaned


class MembershipDeleteForm(forms.Form):
    reason = forms.CharField(max_length=500, strip=True)


@admin.register(Membership)
class MembershipAdmin(AuditedAdmin):
    """Who plays whom (issue 11): adding, changing (user, role, faction) or deleting a membership
    is audited with its old and new values and a reason, asked for on the delete page too. A
    membership that changes hands or faction also ends its API key (fleets' key seal). The
    campaign's ruleset says whether a membership fits its game (issue 10: a naval player plays
    a faction; a seafaring seat and its membership are given on the game's dashboard)."""

    form = MembershipForm
    list_display = ("user", "campaign", "role", "seat")
    list_filter = ("campaign", "role")
    fields = ("user", "campaign", "role", "faction", "reason")
    delete_confirmation_template = "admin/campaign/membership_delete_confirmation.html"

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        before = (
            Membership.objects.select_related("user", "campaign", "faction")
            .filter(pk=obj.pk)
            .first()
            if change
            else None
        )
        old = membership_shown(before)
        ModeratorScoped.save_model(self, request, obj, form, change)
        membership_audit(
            campaign=obj.campaign,
            user=request.user,
            action="edit membership" if change else "add membership",
            reason=form.cleaned_data["reason"],
            old=old,
            new=membership_shown(obj),
            subject=obj,
        )

    def get_queryset(self, request: HttpRequest) -> Any:
        """With what every installed ruleset's seat name reads, so that the list costs the same
        queries for any number of rows."""
        every = rulesets.ruleset_all()
        related = sorted({name for ruleset in every for name in ruleset.membership_related})
        # The list's own select_related is skipped once the queryset has one: name them all here.
        return super().get_queryset(request).select_related("user", "campaign", *related)

    @admin.display(description="seat")
    def seat(self, membership: Membership) -> str:
        """What the member plays, as their campaign's ruleset words it (issue 10)."""
        try:
            return ruleset_of(membership.campaign).seat_name(membership) or "—"
        except UnknownRuleset:
            return "—"

    def get_actions(self, request: HttpRequest) -> Any:
        """No deleting from the list: its confirmation asks no reason (the delete page does)."""
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> Any:
        """Django's delete page, which takes any post as the confirmation: a post without a
        reason shows the page again with the problem, and deletes nothing."""
        if request.method == "POST":
            reason_form = MembershipDeleteForm(request.POST)
            if reason_form.is_valid():
                request._deletion_reason = reason_form.cleaned_data["reason"]  # type: ignore[attr-defined]
            else:
                request.POST = QueryDict()  # type: ignore[misc]  # not confirmed: the page again
                extra_context = {**(extra_context or {}), "reason_missing": True}
        return super().delete_view(request, object_id, extra_context)

    def _audit_deletion(self, request: HttpRequest, objs: list[Any]) -> None:
        reason = getattr(request, "_deletion_reason", "")
        for obj in objs:
            membership_audit(
                campaign=obj.campaign,
                user=request.user,
                action="delete membership",
                reason=reason,
                old=membership_shown(obj),
                new=membership_shown(None),
                subject=obj,
            )


@admin.register(Turn)
class TurnAdmin(ModeratorScoped):
    """Turns are changed only through the dashboard's actions (audited transitions)."""

    list_display = ("campaign", "number", "status", "deadline", "archived")
    list_filter = ("campaign", "status", "archived")
    readonly_fields = [f.name for f in Turn._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ArchivedResult)
class ArchivedResultAdmin(ModeratorScoped):
    campaign_path = "turn__campaign"

    list_display = ("turn", "archived_at", "archived_by", "reason")
    readonly_fields = ("turn", "scenario", "result", "archived_at", "archived_by", "reason")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


REASON_SHOWN = 80  # characters of a reason in the log's list (the whole on the entry's page)


@admin.register(AuditEntry)
class AuditEntryAdmin(ModeratorScoped):
    """The audit log: read-only, filterable by campaign, action, user and turn."""

    # Who, what and why first, so that they fit a 1366-pixel screen; the turn with its status
    # when the entry was written, the campaign with its slug (two may share a name).
    list_display = ("created_at", "user", "action", "short_reason", "turn_then", "campaign")
    list_select_related = ("user", "turn", "campaign")
    list_filter = ("campaign", "action", "user")
    search_fields = ("reason", "action")
    date_hierarchy = "created_at"
    readonly_fields = ("campaign", "turn", "user", "action", "reason", "detail", "created_at")

    @admin.display(description="reason")
    def short_reason(self, entry: AuditEntry) -> str:
        return Truncator(entry.reason).chars(REASON_SHOWN)

    @admin.display(description="turn (then)", ordering="turn__number")
    def turn_then(self, entry: AuditEntry) -> str:
        if entry.turn is None:
            return "—"
        status = entry.turn_status
        return f"{entry.turn.number} ({status})" if status else str(entry.turn.number)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


admin.site.site_header = "Admiralty"
admin.site.site_title = "Admiralty"
admin.site.index_title = "The moderator's desk"
