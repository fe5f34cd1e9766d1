"""`python -m storage.dkg.seed_build`: rewrite storage/dkg/seed/ and print each domain's count."""

from __future__ import annotations

from storage.dkg.seed_build.build import write

if __name__ == "__main__":
    for name, count in write().items():
        print(f"{name}: {count}")
