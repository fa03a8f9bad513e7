//! Subgroup intrinsics (WGSL's `subgroups` extension, wgpu feature `SUBGROUP`).
//!
//! A subgroup is a set of invocations of one workgroup that the hardware runs together (a
//! warp on NVIDIA, a wave on AMD). Its size is chosen by the device, not the kernel: 8 on
//! lavapipe (with AVX2), 32 on NVIDIA, 32 or 64 on AMD, and on the CPU backend 32 unless set
//! (`SAREK_CPU_SUBGROUP_SIZE`, `Device::set_subgroup_size`). WebGPU promises only a power of
//! two from 4 to 128, the same for every invocation of a dispatch; a kernel must read
//! [`subgroup_size`] rather than assume one. How invocations map to subgroups is not
//! promised either; on the devices above, and on the CPU backend, invocation `i` of a
//! workgroup (its `local_invocation_index`, row-major from x) is lane `i % size` of subgroup
//! `i / size`.
//!
//! Every subgroup operation must be reached by every invocation of its workgroup together,
//! like a barrier: Sarek refuses one under a condition that differs between invocations, as
//! WGSL's uniformity analysis does. A kernel that uses them needs the `SUBGROUP` feature
//! (`ABI.features`); launching it on a device without it fails with
//! `Error::MissingFeature`. A helper function may call them; every call of such a helper must
//! then be reached by every invocation together (checked at the call). [`subgroup_size`] and
//! [`subgroup_invocation_id`] are read in the kernel body (WGSL's entry-point inputs) and
//! passed to helpers as arguments.
//!
//! On the host (a kernel's plain-Rust `body`, one invocation at a time) every invocation is a
//! subgroup of its own: `subgroup_size()` is 1 and every operation sees only its own value.

/// The values subgroup arithmetic and shuffles work on: `f32`, `i32`, `u32`, `f16`, `F16Vec2`,
/// `F16Vec4`.
pub trait SubgroupValue: Copy + 'static {
    #[doc(hidden)]
    fn zero() -> Self;
    #[doc(hidden)]
    fn one() -> Self;
}

/// The integers the bitwise subgroup operations work on: `i32`, `u32`.
pub trait SubgroupInteger: SubgroupValue {}

impl SubgroupValue for f32 {
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
}
impl SubgroupValue for i32 {
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
}
impl SubgroupValue for u32 {
    fn zero() -> Self {
        0
    }
    fn one() -> Self {
        1
    }
}
impl SubgroupValue for half::f16 {
    fn zero() -> Self {
        half::f16::ZERO
    }
    fn one() -> Self {
        half::f16::ONE
    }
}
impl SubgroupValue for crate::F16Vec2 {
    fn zero() -> Self {
        crate::F16Vec2::ZERO
    }
    fn one() -> Self {
        crate::F16Vec2::ONE
    }
}
impl SubgroupValue for crate::F16Vec4 {
    fn zero() -> Self {
        crate::F16Vec4::ZERO
    }
    fn one() -> Self {
        crate::F16Vec4::ONE
    }
}
impl SubgroupInteger for i32 {}
impl SubgroupInteger for u32 {}

/// The number of invocations in a subgroup (WGSL `subgroup_size`): the same for every
/// invocation of a launch, a power of two from 4 to 128 on a GPU.
#[inline]
pub fn subgroup_size() -> u32 {
    1
}

/// The invocation's lane in its subgroup, from 0 to `subgroup_size() - 1` (WGSL
/// `subgroup_invocation_id`).
#[inline]
pub fn subgroup_invocation_id() -> u32 {
    0
}

/// Waits until every invocation of the subgroup reaches this point (WGSL `subgroupBarrier`,
/// wgpu feature `SUBGROUP_BARRIER`).
#[inline]
pub fn subgroup_barrier() {}

macro_rules! reductions {
    ($($(#[$doc:meta])* $name:ident: $bound:ident;)*) => {
        $(
            $(#[$doc])*
            #[inline]
            pub fn $name<T: $bound>(value: T) -> T {
                value
            }
        )*
    };
}

reductions! {
    /// The sum of `value` over the subgroup's lanes (WGSL `subgroupAdd`; integers wrap, and
    /// the order of a float sum is the device's).
    subgroup_add: SubgroupValue;
    /// The product over the subgroup (WGSL `subgroupMul`).
    subgroup_mul: SubgroupValue;
    /// The minimum over the subgroup (WGSL `subgroupMin`).
    subgroup_min: SubgroupValue;
    /// The maximum over the subgroup (WGSL `subgroupMax`).
    subgroup_max: SubgroupValue;
    /// The bitwise and over the subgroup (WGSL `subgroupAnd`).
    subgroup_and: SubgroupInteger;
    /// The bitwise or over the subgroup (WGSL `subgroupOr`).
    subgroup_or: SubgroupInteger;
    /// The bitwise xor over the subgroup (WGSL `subgroupXor`).
    subgroup_xor: SubgroupInteger;
    /// The sum over this lane and the lanes below it (WGSL `subgroupInclusiveAdd`).
    subgroup_inclusive_add: SubgroupValue;
    /// The product over this lane and the lanes below it (WGSL `subgroupInclusiveMul`).
    subgroup_inclusive_mul: SubgroupValue;
    /// The value of the lowest active lane (WGSL `subgroupBroadcastFirst`).
    subgroup_broadcast_first: SubgroupValue;
}

/// The sum over the lanes below this one; 0 on lane 0 (WGSL `subgroupExclusiveAdd`).
#[inline]
pub fn subgroup_exclusive_add<T: SubgroupValue>(_value: T) -> T {
    T::zero()
}

/// The product over the lanes below this one; 1 on lane 0 (WGSL `subgroupExclusiveMul`).
#[inline]
pub fn subgroup_exclusive_mul<T: SubgroupValue>(_value: T) -> T {
    T::one()
}

/// Whether `predicate` holds on every lane (WGSL `subgroupAll`).
#[inline]
pub fn subgroup_all(predicate: bool) -> bool {
    predicate
}

/// Whether `predicate` holds on some lane (WGSL `subgroupAny`).
#[inline]
pub fn subgroup_any(predicate: bool) -> bool {
    predicate
}

/// A bit mask of the lanes where `predicate` holds: bit `i % 32` of component `i / 32` for
/// lane `i` (WGSL `subgroupBallot`).
#[inline]
pub fn subgroup_ballot(predicate: bool) -> crate::UVec4 {
    crate::UVec4::new(u32::from(predicate), 0, 0, 0)
}

/// `value` of lane `lane`, which must be a constant (a literal or a `const`; WGSL
/// `subgroupBroadcast`); [`subgroup_shuffle`] takes a lane computed at run time.
#[inline]
pub fn subgroup_broadcast<T: SubgroupValue>(value: T, _lane: u32) -> T {
    value
}

/// `value` of lane `lane` (WGSL `subgroupShuffle`). From a lane that does not exist the
/// result is indeterminate on a GPU (0 on the CPU backend).
#[inline]
pub fn subgroup_shuffle<T: SubgroupValue>(value: T, _lane: u32) -> T {
    value
}

/// `value` of lane `subgroup_invocation_id() ^ mask` (WGSL `subgroupShuffleXor`): the
/// butterfly of a reduction.
#[inline]
pub fn subgroup_shuffle_xor<T: SubgroupValue>(value: T, _mask: u32) -> T {
    value
}

/// `value` of lane `subgroup_invocation_id() - delta` (WGSL `subgroupShuffleUp`);
/// indeterminate below lane `delta` on a GPU (0 on the CPU backend).
#[inline]
pub fn subgroup_shuffle_up<T: SubgroupValue>(value: T, _delta: u32) -> T {
    value
}

/// `value` of lane `subgroup_invocation_id() + delta` (WGSL `subgroupShuffleDown`);
/// indeterminate past the last lane on a GPU (0 on the CPU backend).
#[inline]
pub fn subgroup_shuffle_down<T: SubgroupValue>(value: T, _delta: u32) -> T {
    value
}

/// `true` on exactly one invocation of the subgroup, the lowest active lane (WGSL
/// `subgroupElect`).
#[inline]
pub fn subgroup_elect() -> bool {
    true
}
