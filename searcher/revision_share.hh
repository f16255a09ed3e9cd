/*
 * revision_share.hh -- what the reading handles of one process read
 * once for a database at a revision and then share: the works' lengths
 * (bm25.cc) and the facet columns (facet_columns.cc).
 *
 * A database is named by its directory's device and inode and its UUID
 * (a rebuild swapped in under the same name is another database), and
 * what was read of it by the revision it was read at.  A handle whose
 * database is there takes the object at once, without paying its own
 * rent first, and the process keeps one object a database however many
 * handles (paperdex serve's worker threads) read it.  Weak: an object
 * lives while a handle holds it.
 */
#ifndef PDX_REVISION_SHARE_HH
#define PDX_REVISION_SHARE_HH

#include <xapian.h>

#include <sys/types.h>

#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "../common/shim_db.hh"

namespace pdxshim {

/* Whether h reads one local index that it does not write: the handles
 * that read things once a revision (a writer's revision moves with each
 * commit; a remote shard's data is the server's; several databases
 * would need one each). */
inline bool one_local_reader(const shim_db *h)
{
    return !h->writable && h->subs.size() == 1 && h->shards.size() == 1 &&
           h->shards[0].local;
}

/* A handle's rent toward reading something once a revision: what its
 * searches paid (postings scored, works met) since the revision began. */
struct Rent {
    Xapian::rev rev = 0;
    double paid = 0;
    /* True, with the rent back to 0, when r is a new revision (a commit
     * since: what was read is stale). */
    bool moved_to(Xapian::rev r)
    {
        if (r == rev)
            return false;
        rev = r;
        paid = 0;
        return true;
    }
};

typedef std::tuple<dev_t, ino_t, std::string, Xapian::rev> RevisionKey;

template <class T> class RevisionShare {
  public:
    /* What a handle of the process kept for key, or null. */
    std::shared_ptr<const T> find(const RevisionKey &key)
    {
        std::lock_guard<std::mutex> lock(mu_);
        auto i = kept_.find(key);
        return i == kept_.end() ? nullptr : i->second.lock();
    }
    /* obj, kept for the other handles; or what another handle kept for
     * key meanwhile (both read the same revision). */
    std::shared_ptr<const T> keep(const RevisionKey &key,
                                  std::shared_ptr<const T> obj)
    {
        std::lock_guard<std::mutex> lock(mu_);
        for (auto i = kept_.begin(); i != kept_.end();)
            i = i->second.expired() ? kept_.erase(i) : std::next(i);
        std::weak_ptr<const T> &slot = kept_[key];
        if (auto other = slot.lock())
            return other;
        slot = obj;
        return obj;
    }

  private:
    std::mutex mu_;
    std::map<RevisionKey, std::weak_ptr<const T>> kept_;
};

} // namespace pdxshim

#endif
