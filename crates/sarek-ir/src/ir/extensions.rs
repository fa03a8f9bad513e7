//! What a kernel uses beyond core WebGPU: the limits it is checked against and the subgroup
//! operations (WGSL's `subgroups` extension).

/// Which limits a kernel is checked against when it compiles.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Limits {
    /// WebGPU's defaults, which every adapter supports (256 invocations per workgroup, 8
    /// storage buffers, 16 KiB of workgroup memory): a kernel that compiles runs anywhere.
    #[default]
    Portable,
    /// `#[sarek::kernel(limits = "device")]`: no compile-time bound beyond the IR's own; each
    /// launch checks the workgroup size, the buffers and the workgroup memory against the
    /// device's limits and refuses, naming the limit, where they are lower.
    Device,
}

/// A subgroup operation (`sarek::gpu::subgroup_*`), with WGSL's meaning: a collective over
/// the active invocations of the caller's subgroup. Every one is in uniform control flow
/// (checked), so every invocation of the subgroup takes part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SubgroupOp {
    /// `subgroup_add(x)`: the sum over the subgroup (integers wrap).
    Add,
    /// `subgroup_mul(x)`: the product.
    Mul,
    /// `subgroup_min(x)`.
    Min,
    /// `subgroup_max(x)`.
    Max,
    /// `subgroup_and(x)` on integers.
    And,
    /// `subgroup_or(x)` on integers.
    Or,
    /// `subgroup_xor(x)` on integers.
    Xor,
    /// `subgroup_exclusive_add(x)`: the sum over the lanes below this one (0 for lane 0).
    ExclusiveAdd,
    /// `subgroup_exclusive_mul(x)`: the product over the lanes below (1 for lane 0).
    ExclusiveMul,
    /// `subgroup_inclusive_add(x)`: the sum over this lane and those below.
    InclusiveAdd,
    /// `subgroup_inclusive_mul(x)`.
    InclusiveMul,
    /// `subgroup_all(b)`: whether `b` holds on every lane.
    All,
    /// `subgroup_any(b)`: whether it holds on some lane.
    Any,
    /// `subgroup_ballot(b)`: a `UVec4` bit mask, bit `i` set where lane `i`'s `b` holds.
    Ballot,
    /// `subgroup_broadcast(x, lane)`: lane `lane`'s `x` (`lane` a constant).
    Broadcast,
    /// `subgroup_broadcast_first(x)`: the lowest active lane's `x`.
    BroadcastFirst,
    /// `subgroup_shuffle(x, lane)`: lane `lane`'s `x` (`lane` any `u32`).
    Shuffle,
    /// `subgroup_shuffle_xor(x, mask)`: lane `id ^ mask`'s `x`.
    ShuffleXor,
    /// `subgroup_shuffle_up(x, delta)`: lane `id - delta`'s `x`.
    ShuffleUp,
    /// `subgroup_shuffle_down(x, delta)`: lane `id + delta`'s `x`.
    ShuffleDown,
    /// `subgroup_elect()`: `true` on the lowest active lane only.
    Elect,
}

impl SubgroupOp {
    /// Every operation, with its Rust name (`subgroup_` + the name) and WGSL's.
    pub const ALL: [(SubgroupOp, &'static str, &'static str); 21] = [
        (SubgroupOp::Add, "add", "subgroupAdd"),
        (SubgroupOp::Mul, "mul", "subgroupMul"),
        (SubgroupOp::Min, "min", "subgroupMin"),
        (SubgroupOp::Max, "max", "subgroupMax"),
        (SubgroupOp::And, "and", "subgroupAnd"),
        (SubgroupOp::Or, "or", "subgroupOr"),
        (SubgroupOp::Xor, "xor", "subgroupXor"),
        (
            SubgroupOp::ExclusiveAdd,
            "exclusive_add",
            "subgroupExclusiveAdd",
        ),
        (
            SubgroupOp::ExclusiveMul,
            "exclusive_mul",
            "subgroupExclusiveMul",
        ),
        (
            SubgroupOp::InclusiveAdd,
            "inclusive_add",
            "subgroupInclusiveAdd",
        ),
        (
            SubgroupOp::InclusiveMul,
            "inclusive_mul",
            "subgroupInclusiveMul",
        ),
        (SubgroupOp::All, "all", "subgroupAll"),
        (SubgroupOp::Any, "any", "subgroupAny"),
        (SubgroupOp::Ballot, "ballot", "subgroupBallot"),
        (SubgroupOp::Broadcast, "broadcast", "subgroupBroadcast"),
        (
            SubgroupOp::BroadcastFirst,
            "broadcast_first",
            "subgroupBroadcastFirst",
        ),
        (SubgroupOp::Shuffle, "shuffle", "subgroupShuffle"),
        (SubgroupOp::ShuffleXor, "shuffle_xor", "subgroupShuffleXor"),
        (SubgroupOp::ShuffleUp, "shuffle_up", "subgroupShuffleUp"),
        (
            SubgroupOp::ShuffleDown,
            "shuffle_down",
            "subgroupShuffleDown",
        ),
        (SubgroupOp::Elect, "elect", "subgroupElect"),
    ];

    /// The operation `sarek::gpu::subgroup_<name>` performs.
    pub fn from_rust(name: &str) -> Option<SubgroupOp> {
        let name = name.strip_prefix("subgroup_")?;
        Self::ALL.iter().find(|e| e.1 == name).map(|e| e.0)
    }

    /// The Rust name, without `subgroup_`.
    pub fn rust_name(self) -> &'static str {
        Self::ALL.iter().find(|e| e.0 == self).map_or("", |e| e.1)
    }

    /// WGSL's built-in function.
    pub fn wgsl_name(self) -> &'static str {
        Self::ALL.iter().find(|e| e.0 == self).map_or("", |e| e.2)
    }

    /// The number of arguments: the value, then a lane, delta or mask for the gathers.
    pub fn arity(self) -> usize {
        match self {
            SubgroupOp::Elect => 0,
            SubgroupOp::Broadcast
            | SubgroupOp::Shuffle
            | SubgroupOp::ShuffleXor
            | SubgroupOp::ShuffleUp
            | SubgroupOp::ShuffleDown => 2,
            _ => 1,
        }
    }
}
