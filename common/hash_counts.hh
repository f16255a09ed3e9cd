/*
 * hash_counts.hh -- counts by key, each key's 64-bit hash standing for
 * it: the author facet's works by name (searcher/shim_read.cc,
 * AuthorSpy) and the spelling table's counts not yet handed to Xapian
 * (indexer/shim_write.cc, Writer::spelling).
 *
 * Why not a std::unordered_map<std::string, count>: a node and a cache
 * miss or two an increment; the author facet spent 180 ms that way on
 * the 400,000 names of a broad query's 80,000 works.  Here: open
 * addressing with linear probing, a slot of 16 bytes (the hash, the
 * count, the key's index) so that four share a cache line, and the
 * table in huge pages where the kernel gives them (madvise): a broad
 * query's table is megabytes read at random, and with 4 KB pages nearly
 * every probe missed the TLB as well as the cache.  What is left is the
 * probe's cache miss, so callers hash their keys once (key_hash, XXH3)
 * and hand several at a time, their slots fetched together (prefetch):
 * the misses overlap.  A key's bytes are copied in when it is first
 * counted, so the caller's text need not outlive the call.
 *
 * A hash stands for its key: two of n keys share a count with odds of
 * about n^2 / 2^65 (2^-25 for a million).  The facet counts the names
 * it shows again (Facets::recount); a shared spelling count would move
 * a word's frequency, never the index's works.  key_hash() is never 0,
 * which marks an empty slot.
 *
 * Not thread-safe: one table a thread (a match's spy, a writer).
 */
#ifndef PDX_HASH_COUNTS_HH
#define PDX_HASH_COUNTS_HH

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace pdxshim {

/* A key's hash as HashCounts takes it: xxHash's XXH3 (a name of 15
 * bytes in a few nanoseconds, where FNV-1a's loop, a multiply a byte,
 * took tens), never 0.  Only ever in memory: the hashes the index keeps
 * are FNV-1a (common/positions.cc, forms.cc). */
inline uint64_t key_hash(std::string_view key)
{
    return XXH3_64bits(key.data(), key.size()) | 1;
}

class HashCounts {
  public:
    /* A table for about `expect` keys (it grows past them). */
    explicit HashCounts(size_t expect = 0)
    {
        size_t cap = 1024;
        bits_ = 10;
        while (cap < 2 * expect)
            cap *= 2, bits_++;
        alloc(cap);
        keys_.reserve(expect);
    }
    ~HashCounts() { std::free(slots_); }
    HashCounts(const HashCounts &) = delete;
    HashCounts &operator=(const HashCounts &) = delete;

    /* Room for k more keys: call before prefetch() and add() of k keys
     * (growing moves the slots). */
    void reserve_more(size_t k)
    {
        while (2 * (keys_.size() + k) > size_)
            grow();
    }
    /* The slot of hash h fetched into the cache ahead of add() or
     * take(). */
    void prefetch(uint64_t h) const { __builtin_prefetch(&slots_[home(h)], 1); }
    /* n more for key, whose hash is h (key_hash(key)); room reserved. */
    void add(std::string_view key, uint64_t h, uint32_t n)
    {
        Slot &s = find(h);
        if (!s.hash) {
            s = Slot{h, 0, static_cast<uint32_t>(keys_.size())};
            keys_.push_back(Key{bytes_.size(), key.size(), index(s)});
            bytes_.append(key);
        }
        s.n += n;
    }
    /* One fewer for the key of hash h: false when its count is 0 or it
     * was never counted. */
    bool take(uint64_t h)
    {
        Slot &s = find(h);
        if (!s.hash || s.n == 0)
            return false;
        s.n--;
        return true;
    }
    /* The keys ever counted since the last clear(). */
    size_t size() const { return keys_.size(); }
    /* f(key, count) for each key whose count is above 0, in the order
     * first counted; the views live until clear() or the table's end.
     * (The keys, not the slots: a table sized for a broad query may hold
     * few.) */
    template <class F> void each(F f) const
    {
        for (const Key &k : keys_)
            if (slots_[k.slot].n)
                f(std::string_view(bytes_.data() + k.at, k.len),
                  slots_[k.slot].n);
    }
    /* Empty again, at its size. */
    void clear()
    {
        std::memset(static_cast<void *>(slots_), 0, size_ * sizeof(Slot));
        keys_.clear();
        bytes_.clear();
    }

  private:
    struct Slot {
        uint64_t hash; /* 0: empty */
        uint32_t n;    /* a facet counts at most a database's works */
        uint32_t key;  /* in keys_ */
    };
    struct Key {
        size_t at, len; /* in bytes_ */
        size_t slot;    /* its count's */
    };
    /* A hash's first slot: its top bits after a Fibonacci multiply. */
    size_t home(uint64_t h) const
    {
        return static_cast<size_t>((h * 0x9E3779B97F4A7C15ULL) >> (64 - bits_));
    }
    size_t index(const Slot &s) const { return static_cast<size_t>(&s - slots_); }
    Slot &find(uint64_t h)
    {
        const size_t mask = size_ - 1;
        size_t i = home(h);
        while (slots_[i].hash && slots_[i].hash != h)
            i = (i + 1) & mask;
        return slots_[i];
    }
    void alloc(size_t cap)
    {
        const size_t huge = size_t(2) << 20;
        const size_t bytes = (cap * sizeof(Slot) + huge - 1) / huge * huge;
        slots_ = static_cast<Slot *>(std::aligned_alloc(huge, bytes));
        if (!slots_)
            throw std::bad_alloc();
        madvise(slots_, bytes, MADV_HUGEPAGE);
        std::memset(static_cast<void *>(slots_), 0, cap * sizeof(Slot));
        size_ = cap;
    }
    void grow()
    {
        Slot *old = slots_;
        const size_t old_size = size_;
        bits_++;
        alloc(old_size * 2);
        for (size_t k = 0; k < old_size; k++) {
            if (!old[k].hash)
                continue;
            Slot &s = find(old[k].hash);
            s = old[k];
            keys_[s.key].slot = index(s);
        }
        std::free(old);
    }
    Slot *slots_ = nullptr;
    size_t size_ = 0;
    unsigned bits_ = 10; /* size_ is 2^bits_ */
    std::vector<Key> keys_;
    std::string bytes_; /* the keys, end to end */
};

} // namespace pdxshim

#endif
