"""``python -m core access …``: who may use which campaign on a shared PostgreSQL database.

``setup`` (the administrator, once and after each upgrade) creates or upgrades the tables and
lets a group role use them; ``grant``, ``revoke`` and ``list`` are for a campaign's owner. The
database URL carries no password: libpq reads ``~/.pgpass`` (or ``PGPASSFILE``).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

EXIT_REFUSED = 2


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds ``access`` and its subcommands to the ``python -m core`` parser."""
    access = sub.add_parser(
        "access",
        help="who may use which campaign on a shared PostgreSQL database",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    access.set_defaults(run=_run)
    verbs = access.add_subparsers(dest="verb", required=True)
    setup = verbs.add_parser(
        "setup",
        help="create or upgrade the tables and let a group role use them "
        "(the database's administrator)",
    )
    setup.add_argument(
        "--group",
        default="combatdesk",
        help="the group role of the DMs and players (default: combatdesk)",
    )
    grant = verbs.add_parser("grant", help="give a role access to a campaign (its owner)")
    grant.add_argument("campaign", help="the campaign's name")
    grant.add_argument("role", help="the database role (or group role) to let in")
    grant.add_argument(
        "--as",
        dest="access",
        required=True,
        choices=("owner", "co-dm", "player"),
        help="owner: everything; co-dm: read and write; player: read only",
    )
    revoke = verbs.add_parser("revoke", help="take a role's access back (the campaign's owner)")
    revoke.add_argument("campaign", help="the campaign's name")
    revoke.add_argument("role", help="the database role")
    show = verbs.add_parser("list", help="the campaigns this role can see, or who uses one")
    show.add_argument("campaign", nargs="?", help="the campaign's name")
    for verb in (setup, grant, revoke, show):
        verb.add_argument(
            "--database",
            metavar="URL",
            required=True,
            help="postgresql+psycopg://ROLE@HOST:5432/DATABASE (no password: use ~/.pgpass)",
        )


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from core.store import Store, StoreError

    try:
        store = Store.open(args.database)
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    try:
        if args.verb == "setup":
            for statement in store.access.setup(args.group):
                out.write(f"{statement};\n")
            out.write(f"-- {store.url}: tables ready; members of {args.group} may use them.\n")
        elif args.verb == "grant":
            campaign = store.access.campaign_named(args.campaign)
            store.access.grant(campaign, args.role, args.access)
            out.write(f"{args.role} is now {args.access} of {campaign.name}.\n")
        elif args.verb == "revoke":
            campaign = store.access.campaign_named(args.campaign)
            store.access.revoke(campaign, args.role)
            out.write(f"{args.role} no longer has access to {campaign.name}.\n")
        elif args.campaign is None:
            for campaign in store.campaigns.all():
                out.write(f"{campaign.name}\t{store.access.level(campaign.id) or '-'}\n")
        else:
            campaign = store.access.campaign_named(args.campaign)
            for member in store.access.members(campaign):
                given = (
                    f"\tgiven by {member.changed_by} at {member.changed_at:%Y-%m-%d %H:%M}"
                    if member.changed_by and member.changed_at
                    else "\tcreated it"
                )
                out.write(f"{member.role}\t{member.access}{given}\n")
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    finally:
        store.close()
    return 0
