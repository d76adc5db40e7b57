// Demo seed content for Nurture Home (store code NH).
// Pure data: no runtime imports. Image file names are served from /api/public/{filename}.

export interface SeedCategory {
  slug: string;
  name: string;
  description: string;
  image: string;
}

export interface SeedVariant {
  sku: string;
  label: string;
  price: string; // "12.99"
}

export interface SeedProduct {
  slug: string;
  name: string;
  categorySlug: string;
  description: string;
  shortDescription: string;
  price: string;
  compareAtPrice: string | null;
  images: string[]; // file names served from /api/public/{filename}
  status: 'active' | 'inactive' | 'out_of_stock';
  inventory: number;
  weight: string | null; // ounces, "16.00"
  itemNumber: string;
  sku: string;
  upc: string;
  caseUpc: string | null;
  size: string;
  caseCount: number | null;
  ingredients: string[];
  features: string[];
  uses: string[];
  benefits: string[];
  instructions: string;
  cautions: string;
  kitContents: string[]; // product slugs
  isStarterKit: boolean;
  isBestseller: boolean;
  isRefill: boolean;
  isFragranceFree: boolean;
  variants: SeedVariant[]; // [] when no variants
}

export interface SeedReview {
  productSlug: string;
  customerName: string;
  customerEmail: string;
  rating: number;
  title: string | null;
  comment: string;
  verified: boolean;
}

export interface SeedBlogPost {
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  image: string;
  author: string;
  readTime: number;
  category: string;
  published: boolean;
  metaTitle: string;
  metaDescription: string;
  targetKeywords: string[];
  faqs: { q: string; a: string }[];
  internalLinks: { anchor: string; href: string }[];
  schemaJsonLd: unknown[];
  publishedAt: string; // ISO date
}

export interface SeedIngredient {
  name: string;
  description: string;
  ewgRating: number | null;
  safetyInfo: string;
  source: string;
  function: string;
}

export interface SeedImpact {
  bottlesSaved: number;
  chemicalsAvoided: number;
  homesHelped: number;
}

export interface SeedPromoCode {
  code: string;
  discountType: 'percentage' | 'fixed';
  discountValue: number;
  isActive: boolean;
}

// ---------------------------------------------------------------------------
// Categories
// ---------------------------------------------------------------------------

export const categories: SeedCategory[] = [
  {
    slug: 'kitchen',
    name: 'Kitchen',
    description:
      'Grease-cutting, food-safe cleaners for counters, dishes, sinks and produce. Plant-based surfactants and probiotic cultures lift everyday mess without leaving harsh residue where you cook and eat.',
    image: 'category-kitchen.svg',
  },
  {
    slug: 'bathroom',
    name: 'Bathroom',
    description:
      'Probiotic toilet, sink and drain care that keeps working long after you wipe. Beneficial bacteria break down the organic buildup behind stubborn odors, with no bleach fumes and no chlorine.',
    image: 'category-bathroom.svg',
  },
  {
    slug: 'laundry',
    name: 'Laundry',
    description:
      'Gentle, enzyme-powered pods, oxygen boosters and stain removers that get clothes truly clean while staying kind to sensitive skin, cloth diapers and septic systems.',
    image: 'category-laundry.svg',
  },
  {
    slug: 'multi-surface',
    name: 'Multi-Surface',
    description:
      'One-bottle answers for counters, glass, sealed stone and floors. Streak-free, low-scent formulas that are safe to use around crawling babies and curious pets.',
    image: 'category-multi-surface.svg',
  },
  {
    slug: 'starter-kits',
    name: 'Starter Kits',
    description:
      'The easiest way to switch. Curated bundles of our most-loved cleaners at a bundle price, so you can swap out the harsh stuff room by room without guessing what to buy.',
    image: 'category-starter-kits.svg',
  },
];

// ---------------------------------------------------------------------------
// Ingredients (the good, the so-so, and what we avoid)
// ---------------------------------------------------------------------------

export const ingredients: SeedIngredient[] = [
  {
    name: 'Probiotic Cleaning Blend',
    description:
      'Our proprietary blend of dormant Bacillus spores. Once activated by water, the spores release enzymes that keep breaking down organic residue and odor sources for days after cleaning.',
    ewgRating: null,
    safetyInfo:
      'Not yet rated as a blend. Every strain we use is non-pathogenic and has a long history of safe use in agriculture, septic care and wastewater treatment.',
    source: 'Naturally occurring soil bacteria, fermented in food-grade facilities',
    function: 'Residual cleaning and odor control',
  },
  {
    name: 'Purified Water',
    description:
      'Filtered, deionized water that forms the base of our liquid cleaners. Removing minerals keeps formulas stable and helps glass dry streak-free.',
    ewgRating: 1,
    safetyInfo: 'No known hazards.',
    source: 'Municipal water, carbon filtered and deionized',
    function: 'Solvent and carrier',
  },
  {
    name: 'Decyl Glucoside',
    description:
      'A mild, non-ionic surfactant made from corn sugar and coconut fatty alcohol. Lifts grease and dirt gently enough that it is also common in baby shampoo.',
    ewgRating: 1,
    safetyInfo: 'Low concern. Readily biodegradable and non-irritating at use dilutions.',
    source: 'Corn glucose and coconut oil',
    function: 'Surfactant (cleaning agent)',
  },
  {
    name: 'Coco Glucoside',
    description:
      'A gentle foaming surfactant derived from coconut oil and fruit sugars. Works alongside decyl glucoside to boost lather and rinse cleanly.',
    ewgRating: 1,
    safetyInfo: 'Low concern. Readily biodegradable.',
    source: 'Coconut oil and fruit sugar',
    function: 'Surfactant (foaming and cleaning)',
  },
  {
    name: 'Sodium Citrate',
    description:
      'The sodium salt of citric acid. Softens hard water so surfactants can do their job, which means less product and fewer spots.',
    ewgRating: 1,
    safetyInfo: 'Low concern. Widely used as a food additive.',
    source: 'Fermented corn sugar',
    function: 'Water softener and pH buffer',
  },
  {
    name: 'Citric Acid',
    description:
      'A naturally occurring fruit acid that dissolves mineral scale, hard-water rings and soap scum.',
    ewgRating: 1,
    safetyInfo: 'Low concern. Can sting eyes in concentrated form; our formulas use it at gentle levels.',
    source: 'Fermented plant sugars',
    function: 'Descaler and pH adjuster',
  },
  {
    name: 'Sodium Bicarbonate',
    description:
      'Good old baking soda. A mild abrasive and natural deodorizer that neutralizes acidic odors instead of masking them.',
    ewgRating: 1,
    safetyInfo: 'Low concern. Food grade.',
    source: 'Mined trona ore, refined to food grade',
    function: 'Mild abrasive and deodorizer',
  },
  {
    name: 'Sodium Percarbonate',
    description:
      'Baking soda bonded with hydrogen peroxide. In warm water it releases oxygen that lifts stains and brightens whites without chlorine.',
    ewgRating: 2,
    safetyInfo:
      'Low concern in use. The dry powder can irritate eyes, so avoid creating dust. Breaks down into oxygen, water and soda ash.',
    source: 'Soda ash and hydrogen peroxide',
    function: 'Oxygen bleach alternative and stain lifter',
  },
  {
    name: 'Vegetable Glycerin',
    description:
      'A plant-derived humectant that keeps dish soap gentle on hands and helps gel formulas cling to stains.',
    ewgRating: 1,
    safetyInfo: 'Low concern.',
    source: 'Sustainably sourced vegetable oils',
    function: 'Humectant and skin conditioner',
  },
  {
    name: 'Sodium Coco-Sulfate',
    description:
      'A coconut-derived surfactant that delivers the rich lather people expect from dish soap and laundry detergent. We use it in small amounts, balanced with milder glucosides.',
    ewgRating: 3,
    safetyInfo:
      'Moderate concern for skin irritation at high concentrations. Used at low levels and paired with glycerin to stay gentle.',
    source: 'Coconut oil',
    function: 'Foaming surfactant',
  },
  {
    name: 'Protease Enzyme',
    description:
      'A protein-digesting enzyme that breaks down grass, egg, blood and food stains at the molecular level, even in cool water.',
    ewgRating: 3,
    safetyInfo:
      'Moderate concern: enzyme dust can be a respiratory sensitizer. We only use it in liquid or encapsulated form to avoid airborne particles.',
    source: 'Fermentation of non-GMO microorganisms',
    function: 'Stain digestion',
  },
  {
    name: 'Lemon Peel Oil',
    description:
      'Cold-pressed essential oil from lemon peels. Adds a fresh, light scent and natural degreasing power to our scented formulas.',
    ewgRating: 4,
    safetyInfo:
      'Moderate concern: contains naturally occurring limonene, a possible allergen for sensitive skin. Choose our fragrance-free products if you are sensitive.',
    source: 'Cold-pressed lemon peels',
    function: 'Natural scent and degreaser',
  },
  {
    name: 'Fragrance (synthetic)',
    description:
      'A catch-all label term that can hide dozens of undisclosed chemicals, including phthalates and known allergens. This is one of the main things we leave out.',
    ewgRating: 8,
    safetyInfo:
      'High concern. Linked to allergies, asthma triggers and hormone disruption; individual components are rarely disclosed. Never used in Nurture Home products.',
    source: 'Petrochemical derivatives (what we avoid)',
    function: 'Scent masking',
  },
  {
    name: 'Sodium Hypochlorite (bleach)',
    description:
      'The active ingredient in chlorine bleach. Effective at disinfecting, but harsh on lungs, skin, fabrics and septic systems, and dangerous when mixed with ammonia or acids.',
    ewgRating: 7,
    safetyInfo:
      'High concern. Respiratory and skin irritant that forms toxic gases when mixed with other cleaners. Never used in Nurture Home products.',
    source: 'Chlorine and sodium hydroxide (what we avoid)',
    function: 'Disinfectant and whitener',
  },
];

// ---------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------

export const products: SeedProduct[] = [
  {
    slug: 'flushy-probiotic-toilet-cleaner',
    name: 'Flushy Probiotic Toilet Cleaner',
    categorySlug: 'bathroom',
    description:
      'Flushy clings under the rim and gets to work on rings, scale and the organic buildup that causes bathroom odors. Its probiotic cultures keep digesting residue between cleans, so the bowl stays fresher for longer without a whiff of bleach.',
    shortDescription: 'Bleach-free probiotic toilet gel that keeps working between cleans.',
    price: '12.99',
    compareAtPrice: null,
    images: ['flushy-toilet.svg', 'lifestyle-bathroom.svg'],
    status: 'active',
    inventory: 320,
    weight: '26.00',
    itemNumber: 'NH1001',
    sku: 'NH-FLU-24',
    upc: '854002110010',
    caseUpc: '10854002110017',
    size: '24 fl oz',
    caseCount: 12,
    ingredients: ['Purified Water', 'Probiotic Cleaning Blend', 'Citric Acid', 'Decyl Glucoside', 'Lemon Peel Oil'],
    features: [
      'Angled nozzle reaches under the rim',
      'Thick gel clings to the bowl',
      'Septic-safe probiotic formula',
      'Light lemon scent from real peel oil',
    ],
    uses: ['Toilet bowls', 'Under-rim buildup', 'Hard-water rings', 'Septic and RV toilets'],
    benefits: [
      'Keeps odors from coming back for days',
      'No chlorine fumes in small bathrooms',
      'Supports healthy septic systems',
    ],
    instructions:
      'Squeeze under the rim and around the bowl. Let sit for 10 minutes, brush, and flush. For stubborn rings, leave overnight before brushing.',
    cautions:
      'Keep out of reach of children and pets. Avoid contact with eyes. Do not mix with bleach or other cleaners, as this will deactivate the probiotics.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: true,
    isRefill: false,
    isFragranceFree: false,
    variants: [
      { sku: 'NH-FLU-24', label: '24 oz', price: '12.99' },
      { sku: 'NH-FLU-64', label: '64 oz Refill', price: '24.99' },
    ],
  },
  {
    slug: 'dishy-dishwasher-pods',
    name: 'Dishy Dishwasher Pods',
    categorySlug: 'kitchen',
    description:
      'Dishy pods combine oxygen power, water softeners and enzymes in a fast-dissolving, plastic-free wrap. They cut through baked-on food and leave glasses clear, with no dyes, no chlorine and no added fragrance.',
    shortDescription: 'Fragrance-free, chlorine-free pods for sparkling dishes.',
    price: '14.99',
    compareAtPrice: null,
    images: ['dishy-pods.svg', 'lifestyle-kitchen.svg'],
    status: 'active',
    inventory: 210,
    weight: '19.00',
    itemNumber: 'NH1002',
    sku: 'NH-DSH-30',
    upc: '854002110027',
    caseUpc: '10854002110024',
    size: '30 pods',
    caseCount: 8,
    ingredients: ['Sodium Percarbonate', 'Sodium Citrate', 'Sodium Bicarbonate', 'Protease Enzyme', 'Coco Glucoside'],
    features: [
      'Plastic-free, water-soluble wrap',
      'Pre-measured single dose',
      'No dyes, no chlorine, no fragrance',
      'Works in short and eco cycles',
    ],
    uses: ['Dishwashers', 'Baby bottles and sippy cups', 'Glassware', 'Baked-on casserole dishes'],
    benefits: [
      'Spot-free glasses in hard water',
      'Nothing left behind on baby dishes',
      'Compostable carton packaging',
    ],
    instructions:
      'With dry hands, place one pod in the main detergent compartment and close. Run any cycle. For heavily soiled loads, add a second pod to the bottom of the machine.',
    cautions:
      'Keep out of reach of children and pets: pods are not food. Store in a cool, dry place and reseal the carton after use. Avoid contact with eyes.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: false,
    isRefill: false,
    isFragranceFree: true,
    variants: [
      { sku: 'NH-DSH-30', label: '30 pods', price: '14.99' },
      { sku: 'NH-DSH-60', label: '60 pods', price: '26.99' },
    ],
  },
  {
    slug: 'sinky-probiotic-sink-drain-cleaner',
    name: 'Sinky Probiotic Sink & Drain Cleaner',
    categorySlug: 'bathroom',
    description:
      'Sinky is a gentle scrub powder for basins and a probiotic drain treatment in one. Sprinkle it to polish away toothpaste and soap scum, then rinse it down the drain where the cultures settle in and digest the gunk that causes slow drains and sewer smells.',
    shortDescription: 'Scrub-and-treat powder for sinks, drains and overflow holes.',
    price: '10.99',
    compareAtPrice: null,
    images: ['sinky-sink.svg', 'lifestyle-bathroom.svg'],
    status: 'active',
    inventory: 140,
    weight: '17.00',
    itemNumber: 'NH1003',
    sku: 'NH-SNK-16',
    upc: '854002110034',
    caseUpc: '10854002110031',
    size: '16 oz',
    caseCount: 12,
    ingredients: ['Sodium Bicarbonate', 'Probiotic Cleaning Blend', 'Citric Acid', 'Coco Glucoside'],
    features: [
      'Non-scratch scrub for porcelain and stainless steel',
      'Doubles as a weekly drain treatment',
      'Shaker-top recyclable canister',
    ],
    uses: ['Bathroom and kitchen sinks', 'Drains and overflow holes', 'Tubs and shower pans', 'Faucet bases'],
    benefits: [
      'Prevents drain odors instead of masking them',
      'No caustic drain-opener chemicals',
      'Safe for pipes and septic tanks',
    ],
    instructions:
      'Sprinkle onto a damp sink, scrub with a cloth or soft brush, and rinse. For drains, pour 2 tablespoons into the drain at bedtime and follow with a cup of warm (not hot) water. Repeat weekly.',
    cautions:
      'Keep out of reach of children and pets. Avoid inhaling the powder and avoid contact with eyes. Do not use with chemical drain openers.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: false,
    isRefill: false,
    isFragranceFree: false,
    variants: [],
  },
  {
    slug: 'moppy-probiotic-floor-cleaner',
    name: 'Moppy Probiotic Floor Cleaner',
    categorySlug: 'multi-surface',
    description:
      'Moppy is a concentrated, no-rinse floor cleaner for sealed wood, tile, vinyl and laminate. A little goes a long way: it lifts tracked-in dirt and sticky spills, then leaves behind probiotic cultures that keep grout lines and corners smelling fresh.',
    shortDescription: 'No-rinse probiotic concentrate for every sealed floor.',
    price: '13.99',
    compareAtPrice: null,
    images: ['moppy-surface.svg', 'lifestyle-living.svg'],
    status: 'active',
    inventory: 180,
    weight: '34.00',
    itemNumber: 'NH1004',
    sku: 'NH-MOP-32',
    upc: '854002110041',
    caseUpc: '10854002110048',
    size: '32 fl oz',
    caseCount: 6,
    ingredients: ['Purified Water', 'Probiotic Cleaning Blend', 'Decyl Glucoside', 'Sodium Citrate', 'Lemon Peel Oil'],
    features: [
      'Concentrate: 1 bottle makes up to 16 buckets',
      'No-rinse, residue-free finish',
      'Safe on sealed hardwood, tile, vinyl and laminate',
      'Works in spray mops and traditional buckets',
    ],
    uses: ['Kitchen floors', 'Bathroom tile and grout', 'Entryways and mudrooms', 'Pet feeding areas'],
    benefits: [
      'Floors safe for bare feet, babies and paws',
      'Helps grout lines stay odor-free',
      'Less plastic per clean thanks to concentration',
    ],
    instructions:
      'Add 2 capfuls (about 2 oz) to a gallon of warm water, or 1 capful to a 24 oz spray mop reservoir. Mop as usual. No rinsing needed.',
    cautions:
      'Keep out of reach of children and pets. Avoid contact with eyes. Not for use on unsealed wood, waxed floors or marble that has not been sealed.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: false,
    isRefill: false,
    isFragranceFree: false,
    variants: [
      { sku: 'NH-MOP-32', label: '32 oz', price: '13.99' },
      { sku: 'NH-MOP-128', label: '1 Gallon Refill', price: '34.99' },
    ],
  },
  {
    slug: 'washy-probiotic-laundry-pods',
    name: 'Washy Probiotic Laundry Pods',
    categorySlug: 'laundry',
    description:
      'Washy pods pack plant-based surfactants, stain-digesting enzymes and probiotic cultures into one dissolvable dose. They clean in cold water, help keep washer gaskets fresh, and rinse out completely, which makes them a favorite for sensitive skin and cloth diapers.',
    shortDescription: 'Cold-water laundry pods with enzymes and probiotics.',
    price: '16.99',
    compareAtPrice: null,
    images: ['laundry-pods.svg', 'lifestyle-laundry.svg'],
    status: 'active',
    inventory: 460,
    weight: '22.00',
    itemNumber: 'NH1005',
    sku: 'NH-LDP-32',
    upc: '854002110058',
    caseUpc: '10854002110055',
    size: '32 loads',
    caseCount: 6,
    ingredients: [
      'Coco Glucoside',
      'Sodium Coco-Sulfate',
      'Protease Enzyme',
      'Sodium Citrate',
      'Probiotic Cleaning Blend',
      'Vegetable Glycerin',
    ],
    features: [
      'HE and standard washer compatible',
      'Cleans in cold water',
      'Dye-free, fragrance-light formula',
      'Plastic-free refillable tin',
    ],
    uses: ['Everyday laundry', 'Baby clothes and cloth diapers', 'Activewear', 'Towels and bedding'],
    benefits: [
      'Gentle on eczema-prone skin',
      'Helps prevent musty washer odors',
      'Saves energy with cold-water washing',
    ],
    instructions:
      'Place one pod in the drum before adding clothes. Use two pods for large or heavily soiled loads. Do not put pods in the dispenser drawer.',
    cautions:
      'Keep out of reach of children and pets: pods are not food. Handle with dry hands and store in the closed container. If swallowed, rinse mouth and call Poison Control.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: true,
    isRefill: false,
    isFragranceFree: false,
    variants: [
      { sku: 'NH-LDP-32', label: '32 loads', price: '16.99' },
      { sku: 'NH-LDP-64', label: '64 loads', price: '29.99' },
    ],
  },
  {
    slug: 'surfy-probiotic-all-purpose-cleaner',
    name: 'Surfy Probiotic All-Purpose Cleaner',
    categorySlug: 'multi-surface',
    description:
      'Surfy is the everyday spray that handles counters, tables, high chairs, appliances and sealed stone. It wipes away grease and fingerprints on contact and leaves behind beneficial bacteria that keep working against odors. Available in a gallon refill to top up your bottle again and again.',
    shortDescription: 'The everyday probiotic spray for nearly every surface.',
    price: '9.99',
    compareAtPrice: null,
    images: ['surfy-surface.svg', 'lifestyle-kitchen.svg', 'lifestyle-living.svg'],
    status: 'active',
    inventory: 500,
    weight: '18.00',
    itemNumber: 'NH1006',
    sku: 'NH-SRF-16',
    upc: '854002110065',
    caseUpc: '10854002110062',
    size: '16 fl oz',
    caseCount: 12,
    ingredients: ['Purified Water', 'Probiotic Cleaning Blend', 'Decyl Glucoside', 'Sodium Citrate', 'Lemon Peel Oil'],
    features: [
      'Streak-free on sealed stone, laminate and stainless',
      'Food-contact safe, no rinse needed',
      'Adjustable mist-and-stream trigger',
      'Gallon refill cuts plastic by up to 80%',
    ],
    uses: ['Kitchen counters', 'High chairs and tables', 'Appliance fronts', 'Bathroom vanities'],
    benefits: [
      'One bottle replaces a cabinet of sprays',
      'Safe around kids, pets and food',
      'Odor control that lasts for days',
    ],
    instructions:
      'Spray onto the surface, let sit for 30-60 seconds, and wipe with a damp microfiber cloth. For food-contact surfaces, no rinse is necessary. Refill the spray bottle from the gallon as needed.',
    cautions:
      'Keep out of reach of children and pets. Avoid spraying toward the face. Spot-test on unsealed or delicate surfaces. Do not mix with bleach.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: true,
    isRefill: true,
    isFragranceFree: false,
    variants: [
      { sku: 'NH-SRF-16', label: '16 oz', price: '9.99' },
      { sku: 'NH-SRF-32', label: '32 oz', price: '15.99' },
      { sku: 'NH-SRF-128', label: '1 Gallon Refill', price: '39.99' },
    ],
  },
  {
    slug: 'glassy-streak-free-glass-cleaner',
    name: 'Glassy Streak-Free Glass Cleaner',
    categorySlug: 'multi-surface',
    description:
      'Glassy is an ammonia-free glass and mirror spray that flashes off fast and leaves nothing behind but a clear view. A touch of citric acid handles hard-water spots on shower doors, while plant-based surfactants lift nose prints and fingerprints.',
    shortDescription: 'Ammonia-free spray for windows, mirrors and shower glass.',
    price: '8.99',
    compareAtPrice: '10.99',
    images: ['glassy-glass.svg', 'lifestyle-living.svg'],
    status: 'active',
    inventory: 95,
    weight: '17.50',
    itemNumber: 'NH1007',
    sku: 'NH-GLS-16',
    upc: '854002110072',
    caseUpc: '10854002110079',
    size: '16 fl oz',
    caseCount: 12,
    ingredients: ['Purified Water', 'Decyl Glucoside', 'Citric Acid', 'Lemon Peel Oil'],
    features: [
      'Ammonia-free and alcohol-light',
      'Dries fast with no streaks',
      'Cuts hard-water spots on shower doors',
    ],
    uses: ['Windows and mirrors', 'Glass shower doors', 'Screens and stainless appliances', 'Car windows'],
    benefits: [
      'No ammonia fumes in small spaces',
      'Clear finish in a single wipe',
      'Safe for tinted windows',
    ],
    instructions:
      'Spray lightly onto glass or onto a clean microfiber cloth. Wipe in an S-pattern from top to bottom, then buff dry with a second cloth.',
    cautions:
      'Keep out of reach of children and pets. Avoid contact with eyes. For electronic screens, spray onto the cloth, never directly onto the device.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: false,
    isRefill: false,
    isFragranceFree: false,
    variants: [],
  },
  {
    slug: 'sprouty-fruit-and-veggie-wash',
    name: 'Sprouty Fruit & Veggie Wash',
    categorySlug: 'kitchen',
    description:
      'Sprouty helps remove wax, soil and residue from fresh produce better than water alone. Made with food-grade, fragrance-free ingredients, it rinses away completely and leaves no taste behind, so berries taste like berries.',
    shortDescription: 'Fragrance-free produce spray that rinses clean.',
    price: '7.99',
    compareAtPrice: null,
    images: ['fruit-veggie-spray.svg', 'lifestyle-kitchen.svg'],
    status: 'active',
    inventory: 75,
    weight: '13.00',
    itemNumber: 'NH1008',
    sku: 'NH-FVW-12',
    upc: '854002110089',
    caseUpc: '10854002110086',
    size: '12 fl oz',
    caseCount: 12,
    ingredients: ['Purified Water', 'Decyl Glucoside', 'Sodium Citrate', 'Citric Acid'],
    features: [
      'Food-grade ingredients only',
      'Fragrance-free and taste-free',
      'Rinses completely in seconds',
    ],
    uses: ['Apples, berries and grapes', 'Leafy greens', 'Root vegetables', 'Lunchbox prep'],
    benefits: [
      'Removes waxy coatings and soil',
      'Peace of mind for little snackers',
      'No lingering flavor or smell',
    ],
    instructions:
      'Spray produce generously and let sit for 30 seconds. Rub gently, then rinse thoroughly under cool running water. For leafy greens, add 2 sprays to a bowl of water, swish, and rinse.',
    cautions:
      'Always rinse produce after use. Keep out of reach of children. Avoid contact with eyes. Not intended for use on mushrooms or other porous produce.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: false,
    isRefill: false,
    isFragranceFree: true,
    variants: [],
  },
  {
    slug: 'trashy-garbage-can-deodorizer',
    name: 'Trashy Garbage Can Deodorizer',
    categorySlug: 'kitchen',
    description:
      'Trashy is a probiotic deodorizing powder for the bottom of kitchen bins, compost caddies and diaper pails. Baking soda neutralizes sour smells immediately while the probiotic cultures digest the drips and spills that cause them.',
    shortDescription: 'Probiotic powder that stops bin odors at the source.',
    price: '9.49',
    compareAtPrice: null,
    images: ['trashy-garbage.svg', 'lifestyle-kitchen.svg'],
    status: 'out_of_stock',
    inventory: 0,
    weight: '17.00',
    itemNumber: 'NH1009',
    sku: 'NH-TRS-16',
    upc: '854002110096',
    caseUpc: '10854002110093',
    size: '16 oz',
    caseCount: 12,
    ingredients: ['Sodium Bicarbonate', 'Probiotic Cleaning Blend', 'Citric Acid', 'Lemon Peel Oil'],
    features: [
      'Shaker canister with sift-proof lid',
      'Works in bins, compost caddies and diaper pails',
      'Up to 30 applications per canister',
    ],
    uses: ['Kitchen trash cans', 'Compost caddies', 'Diaper pails', 'Recycling bins'],
    benefits: [
      'Neutralizes odors instead of perfuming them',
      'Keeps working between bag changes',
      'Safe to use around food prep areas',
    ],
    instructions:
      'Sprinkle 1-2 tablespoons into the bottom of an empty bin before adding a new bag. For extra-stinky cans, also sprinkle into the bag itself.',
    cautions: 'Keep out of reach of children and pets. Avoid inhaling the powder and avoid contact with eyes.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: false,
    isRefill: false,
    isFragranceFree: false,
    variants: [],
  },
  {
    slug: 'sudsy-plant-based-dish-soap',
    name: 'Sudsy Plant-Based Dish Soap',
    categorySlug: 'kitchen',
    description:
      'Sudsy brings rich, long-lasting suds that slice through grease, with vegetable glycerin to keep hands soft through a sink full of pots. Concentrated, biodegradable and lightly scented with lemon peel oil.',
    shortDescription: 'Concentrated, hand-friendly dish soap that cuts grease fast.',
    price: '6.99',
    compareAtPrice: null,
    images: ['dish-soap.svg', 'lifestyle-kitchen.svg'],
    status: 'active',
    inventory: 390,
    weight: '17.00',
    itemNumber: 'NH1010',
    sku: 'NH-DSP-16',
    upc: '854002110102',
    caseUpc: '10854002110109',
    size: '16 fl oz',
    caseCount: 12,
    ingredients: [
      'Purified Water',
      'Sodium Coco-Sulfate',
      'Coco Glucoside',
      'Vegetable Glycerin',
      'Sodium Citrate',
      'Lemon Peel Oil',
    ],
    features: [
      'Triple-concentrated: a drop does a sink',
      'Gentle on hands with vegetable glycerin',
      'Readily biodegradable',
      'Refill size available',
    ],
    uses: ['Hand-washing dishes', 'Pots and pans', 'Baby bottles', 'Hand-washing delicates'],
    benefits: [
      'Cuts grease without drying hands',
      'Rinses clean with no film on glasses',
      'Less packaging with the refill size',
    ],
    instructions:
      'Add a small squeeze to a sink of warm water, or apply directly to a damp sponge. Wash and rinse as usual.',
    cautions: 'Keep out of reach of children and pets. Avoid contact with eyes. Not for use in dishwashers.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: true,
    isRefill: false,
    isFragranceFree: false,
    variants: [
      { sku: 'NH-DSP-16', label: '16 oz', price: '6.99' },
      { sku: 'NH-DSP-48', label: '48 oz Refill', price: '17.99' },
    ],
  },
  {
    slug: 'boosty-oxy-boost-refill-pouch',
    name: 'Boosty Oxy Boost Refill Pouch',
    categorySlug: 'laundry',
    description:
      'Boosty is a chlorine-free oxygen booster that brightens whites, refreshes colors and lifts set-in stains. It comes in a lightweight compostable pouch designed to refill your Boosty tin or any jar you already own.',
    shortDescription: 'Chlorine-free oxygen booster in a compostable refill pouch.',
    price: '12.99',
    compareAtPrice: '14.99',
    images: ['oxy-boost.svg', 'lifestyle-laundry.svg'],
    status: 'active',
    inventory: 120,
    weight: '33.00',
    itemNumber: 'NH1011',
    sku: 'NH-OXY-32',
    upc: '854002110119',
    caseUpc: '10854002110116',
    size: '32 oz pouch',
    caseCount: 8,
    ingredients: ['Sodium Percarbonate', 'Sodium Bicarbonate', 'Sodium Citrate'],
    features: [
      'Just three ingredients',
      'Compostable refill pouch',
      'Fragrance-free and dye-free',
      'Safe for colors and most washable fabrics',
    ],
    uses: ['Whitening towels and sheets', 'Pre-soaking stains', 'Refreshing dingy activewear', 'Grout paste'],
    benefits: [
      'Bleach-level brightening without chlorine',
      'Breaks down into oxygen, water and soda',
      'Up to 60% less packaging than a tub',
    ],
    instructions:
      'Add 1 scoop (about 2 tablespoons) to the drum with your detergent. To pre-soak, dissolve 1 scoop per gallon of warm water and soak for 1-6 hours before washing.',
    cautions:
      'Keep out of reach of children and pets. Avoid contact with eyes and do not inhale dust. Do not store dissolved solution in a closed container. Not for wool, silk or leather.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: false,
    isRefill: true,
    isFragranceFree: true,
    variants: [],
  },
  {
    slug: 'spotty-probiotic-stain-remover',
    name: 'Spotty Probiotic Stain Remover',
    categorySlug: 'laundry',
    description:
      'Spotty is a clinging gel spray that breaks down food, grass, formula and pet stains with protease enzymes and probiotic cultures. Spray it on when the stain happens and toss the item in the hamper: it keeps working until wash day.',
    shortDescription: 'Enzyme gel spray that keeps working until wash day.',
    price: '9.99',
    compareAtPrice: null,
    images: ['stain-remover.svg', 'lifestyle-laundry.svg'],
    status: 'active',
    inventory: 60,
    weight: '13.50',
    itemNumber: 'NH1012',
    sku: 'NH-STN-12',
    upc: '854002110126',
    caseUpc: '10854002110123',
    size: '12 fl oz',
    caseCount: 12,
    ingredients: [
      'Purified Water',
      'Protease Enzyme',
      'Probiotic Cleaning Blend',
      'Decyl Glucoside',
      'Vegetable Glycerin',
    ],
    features: [
      'Clinging gel spray stays on the stain',
      'Safe to leave on fabric for up to 7 days',
      'Works on carpets and upholstery too',
    ],
    uses: ['Food and formula stains', 'Grass and mud', 'Pet accidents', 'Collar and cuff rings'],
    benefits: [
      'Spray now, wash later',
      'Removes odor along with the stain',
      'Color-safe on most washable fabrics',
    ],
    instructions:
      'Spray directly onto the stain until saturated and gently rub in. Wash as usual, or leave for up to 7 days before washing. For carpets, spray, wait 10 minutes, and blot with a damp cloth.',
    cautions:
      'Keep out of reach of children and pets. Test on a hidden area of delicate or non-colorfast fabrics first. Not for use on wool, silk or leather.',
    kitContents: [],
    isStarterKit: false,
    isBestseller: false,
    isRefill: false,
    isFragranceFree: false,
    variants: [],
  },
  {
    slug: 'essential-starter-kit',
    name: 'Essential Starter Kit',
    categorySlug: 'starter-kits',
    description:
      'Everything most homes reach for every day, bundled at a better price. The Essential Starter Kit swaps out your all-purpose spray, dish soap, toilet cleaner and glass cleaner for probiotic, plant-based versions in one easy box.',
    shortDescription: 'Our four everyday heroes in one money-saving box.',
    price: '34.99',
    compareAtPrice: '38.96',
    images: ['essential-starter-kit.svg', 'lifestyle-kitchen.svg'],
    status: 'active',
    inventory: 85,
    weight: '78.00',
    itemNumber: 'NH1013',
    sku: 'NH-KIT-ESS',
    upc: '854002110133',
    caseUpc: null,
    size: '4-piece kit',
    caseCount: null,
    ingredients: ['Probiotic Cleaning Blend', 'Decyl Glucoside', 'Coco Glucoside', 'Sodium Citrate', 'Citric Acid'],
    features: [
      'Four full-size bestsellers',
      'Save over 10% versus buying separately',
      'Recyclable, plastic-free shipping box',
      'Makes a thoughtful housewarming or baby shower gift',
    ],
    uses: ['Kitchen', 'Bathroom', 'Windows and mirrors', 'Everyday wipe-downs'],
    benefits: [
      'The simplest way to switch to non-toxic cleaning',
      'Covers daily cleaning in every room',
      'Bundle pricing on our most-loved products',
    ],
    instructions:
      'Unbox and start with the room you clean most. Each product includes its own directions on the label. Keep the gallon refill option in mind when your Surfy bottle runs low.',
    cautions:
      'Keep all products out of reach of children and pets. Read each label before use. Do not mix with bleach or other cleaners.',
    kitContents: [
      'surfy-probiotic-all-purpose-cleaner',
      'sudsy-plant-based-dish-soap',
      'flushy-probiotic-toilet-cleaner',
      'glassy-streak-free-glass-cleaner',
    ],
    isStarterKit: true,
    isBestseller: false,
    isRefill: false,
    isFragranceFree: false,
    variants: [],
  },
  {
    slug: 'complete-starter-kit',
    name: 'Complete Starter Kit',
    categorySlug: 'starter-kits',
    description:
      'A whole-home reset in one box. The Complete Starter Kit includes seven full-size Nurture Home cleaners covering the kitchen, bathroom, floors and laundry room, at our biggest bundle discount.',
    shortDescription: 'Seven full-size cleaners for a whole-home switch.',
    price: '59.99',
    compareAtPrice: '80.93',
    images: ['complete-starter-kit.svg', 'lifestyle-living.svg', 'lifestyle-laundry.svg'],
    status: 'active',
    inventory: 40,
    weight: '165.00',
    itemNumber: 'NH1014',
    sku: 'NH-KIT-CMP',
    upc: '854002110140',
    caseUpc: null,
    size: '7-piece kit',
    caseCount: null,
    ingredients: [
      'Probiotic Cleaning Blend',
      'Decyl Glucoside',
      'Coco Glucoside',
      'Sodium Citrate',
      'Sodium Bicarbonate',
      'Protease Enzyme',
    ],
    features: [
      'Seven full-size products',
      'Save over 25% versus buying separately',
      'Covers kitchen, bathroom, floors and laundry',
      'Plastic-free shipping box',
    ],
    uses: ['Whole-home cleaning', 'Moving into a new home', 'Preparing for a new baby', 'Gifting'],
    benefits: [
      'Replace your entire cleaning cabinet at once',
      'Our best bundle price',
      'Consistent, non-toxic routine in every room',
    ],
    instructions:
      'Unbox and replace your old cleaners room by room. Each product includes its own directions on the label. Please dispose of old conventional cleaners at a household hazardous waste site rather than pouring them down the drain.',
    cautions:
      'Keep all products out of reach of children and pets. Read each label before use. Do not mix with bleach or other cleaners.',
    kitContents: [
      'surfy-probiotic-all-purpose-cleaner',
      'sudsy-plant-based-dish-soap',
      'flushy-probiotic-toilet-cleaner',
      'glassy-streak-free-glass-cleaner',
      'washy-probiotic-laundry-pods',
      'moppy-probiotic-floor-cleaner',
      'sinky-probiotic-sink-drain-cleaner',
    ],
    isStarterKit: true,
    isBestseller: false,
    isRefill: false,
    isFragranceFree: false,
    variants: [],
  },
];

// ---------------------------------------------------------------------------
// Reviews
// ---------------------------------------------------------------------------

export const reviews: SeedReview[] = [
  {
    productSlug: 'flushy-probiotic-toilet-cleaner',
    customerName: 'Danielle R.',
    customerEmail: 'danielle.r@example.com',
    rating: 5,
    title: 'Finally, no bleach headache',
    comment:
      'Our guest bathroom has no window, so bleach used to make my eyes water. Flushy smells faintly of lemon and the bowl honestly stays fresher for longer between cleans.',
    verified: true,
  },
  {
    productSlug: 'flushy-probiotic-toilet-cleaner',
    customerName: 'Marcus T.',
    customerEmail: 'marcus.t@example.com',
    rating: 4,
    title: 'Great on odor, needs patience on rings',
    comment:
      'Odor control is excellent. Our hard-water ring took three overnight treatments to fully disappear, but it did go away. Bought the refill size.',
    verified: true,
  },
  {
    productSlug: 'surfy-probiotic-all-purpose-cleaner',
    customerName: 'Priya K.',
    customerEmail: 'priya.k@example.com',
    rating: 5,
    title: 'Lives on my counter now',
    comment:
      'I use it on the high chair tray five times a day without worrying. No streaks on our quartz counters, and the gallon refill makes it cheaper than the stuff I used before.',
    verified: true,
  },
  {
    productSlug: 'surfy-probiotic-all-purpose-cleaner',
    customerName: 'Ellen W.',
    customerEmail: 'ellen.w@example.com',
    rating: 4,
    title: null,
    comment:
      'Cleans really well and I love that it is safe around the cats. I would buy a fragrance-free version if you made one, but the lemon is light.',
    verified: false,
  },
  {
    productSlug: 'washy-probiotic-laundry-pods',
    customerName: 'Jordan P.',
    customerEmail: 'jordan.p@example.com',
    rating: 5,
    title: 'Eczema approved',
    comment:
      'My son has eczema and reacts to almost every detergent. Two months on Washy and no flare-ups from his clothes. They clean well in cold water too.',
    verified: true,
  },
  {
    productSlug: 'sudsy-plant-based-dish-soap',
    customerName: 'Hannah L.',
    customerEmail: 'hannah.l@example.com',
    rating: 5,
    title: 'A little goes a long way',
    comment:
      'It is properly concentrated. One small squeeze handles a whole sink of dinner dishes, and my hands are not cracked by the end of the week anymore.',
    verified: true,
  },
  {
    productSlug: 'dishy-dishwasher-pods',
    customerName: 'Sam O.',
    customerEmail: 'sam.o@example.com',
    rating: 3,
    title: 'Good, but not for the worst pans',
    comment:
      'Everyday loads come out clean and glasses are spot free. Dried-on oatmeal still needed a soak first. I appreciate that there is no perfume smell when the door opens.',
    verified: false,
  },
  {
    productSlug: 'glassy-streak-free-glass-cleaner',
    customerName: 'Lucia M.',
    customerEmail: 'lucia.m@example.com',
    rating: 5,
    title: 'Truly streak-free',
    comment:
      'We have a sliding glass door that the dog presses his nose against all day. One spray, one wipe, clear. No ammonia smell at all.',
    verified: true,
  },
  {
    productSlug: 'spotty-probiotic-stain-remover',
    customerName: 'Chris B.',
    customerEmail: 'chris.b@example.com',
    rating: 4,
    title: 'Saved a white onesie',
    comment:
      'Sprayed a sweet potato stain and forgot about it for four days. It came out completely in the wash. Took off one star because the trigger sprayer is a bit stiff.',
    verified: true,
  },
  {
    productSlug: 'essential-starter-kit',
    customerName: 'Aisha N.',
    customerEmail: 'aisha.n@example.com',
    rating: 5,
    title: 'Easiest switch I have made',
    comment:
      'I bought this while nesting before our baby arrived. Every product in the box has earned its spot, and I have already reordered the Surfy refill.',
    verified: true,
  },
  {
    productSlug: 'moppy-probiotic-floor-cleaner',
    customerName: 'Greg F.',
    customerEmail: 'greg.f@example.com',
    rating: 4,
    title: 'Grout smells better',
    comment:
      'Our bathroom grout always had a faint musty smell. After a few weeks of mopping with Moppy it is gone. No sticky residue on the laminate either.',
    verified: false,
  },
];

// ---------------------------------------------------------------------------
// Journal (blog) posts
// ---------------------------------------------------------------------------

const probioticsContent = `Most cleaners do their job in the few seconds you spend scrubbing. Probiotic cleaners take a different approach: they leave behind a thin layer of beneficial bacteria that keep breaking down the residue you cannot see. Here is what is actually happening on your countertop, in plain language.

## What "probiotic" means on a cleaning label

In food, "probiotic" refers to live microbes that benefit the body. In cleaning, the word describes **beneficial Bacillus spores**, members of the same family of soil bacteria that have been used for decades in septic treatments and wastewater plants. In our bottles they sit dormant, like seeds, until they meet moisture and something to eat.

That "something to eat" is the organic grime behind most household odors: food films, body oils, soap scum, and the sticky residue that builds up around drains and trash cans.

## The three-stage process

1. **Lift.** Plant-derived surfactants such as [decyl glucoside](/ingredients) loosen dirt and grease so you can wipe it away, just like a conventional cleaner.
2. **Digest.** The spores wake up and release enzymes (protease for proteins, lipase for fats, amylase for starches) that break leftover residue into tiny pieces.
3. **Crowd out.** A healthy community of good bacteria occupies the surface, leaving less room and less food for the microbes that cause odors.

The third step is what makes probiotic cleaning different. Instead of resetting a surface to zero and letting it refill with whatever lands there next, you are tipping the balance toward microbes that are harmless to people and pets.

### How long does the effect last?

Research on probiotic cleaning suggests the beneficial bacteria can stay active on hard surfaces for several days after application. In practice, most families notice the difference as **slower odor return** in places like the toilet rim, the sink drain and the bottom of the kitchen bin.

## Probiotic vs. conventional cleaners

| Feature | Conventional cleaner | Probiotic cleaner |
| --- | --- | --- |
| How it works | Harsh chemical reaction or kill step | Surfactants plus enzymes from good bacteria |
| Active time | While wet (seconds to minutes) | Continues for days |
| Typical fumes | Chlorine, ammonia or strong fragrance | Little to none |
| Effect on septic systems | Can harm septic bacteria | Supports healthy septic systems |
| Best for | Disinfecting after illness | Everyday odor and residue control |

## What probiotic cleaners are not

It is worth being clear: a probiotic cleaner is **not a disinfectant**. It is not registered to kill viruses or bacteria, and we never claim otherwise. If someone in your home has a stomach bug, or you are cleaning up after raw poultry, follow public-health guidance for disinfecting that surface, then return to your probiotic routine once the job is done.

For the other 95% of cleaning (daily wipe-downs, weekly bathrooms, floors and laundry) you do not need harsh chemistry. You need something that removes dirt and keeps smells from coming back.

## Where probiotic cleaning shines

Probiotic formulas are especially good in places where organic residue hides:

- **Toilet bowls and rims**, where [Flushy](/product/flushy-probiotic-toilet-cleaner) keeps working between weekly cleans
- **Sink drains and overflow holes**, where sticky biofilm builds up and smells
- **Trash cans and recycling bins**, which collect drips you never see
- **Grout lines and textured floors**, where mops push grime into crevices
- **Pet areas**, where odor-causing proteins linger in fabric and floors

## Tips for getting the best results

- **Skip the bleach chaser.** Following a probiotic cleaner with bleach or a disinfecting wipe wipes out the good bacteria you just applied.
- **Let it dwell.** Give spray cleaners 30 to 60 seconds on the surface before wiping.
- **Store it cool.** Spores are hardy, but a hot garage in August is not ideal. A cupboard under the sink is perfect.
- **Be consistent.** Benefits build over a few weeks of regular use, especially in drains.

## Is it safe around kids and pets?

Our probiotic strains are non-pathogenic and widely used in agriculture and water treatment. Combined with plant-based surfactants and no synthetic fragrance, that makes our formulas a comfortable fit for homes with crawling babies and curious pets. As with any cleaner, keep bottles out of reach and read the label. You can review every ingredient and its rating in our [ingredient glossary](/ingredients), and the science is summarized on our [how it works](/how-it-works) page.

## The bottom line

Probiotic cleaners clean the way nature does: by breaking down what does not belong and leaving behind a balanced, low-odor surface. If you are ready to try it, our [Essential Starter Kit](/product/essential-starter-kit) covers the four products most homes reach for every day. Or read our [non-toxic kitchen routine](/journal/non-toxic-kitchen-cleaning-routine) to see how probiotic cleaning fits into a real week.`;

const kitchenContent = `The kitchen is where cleaning products and food meet, which is exactly why it is the best room to start a non-toxic switch. Every spray you use on a counter ends up, in tiny amounts, on the bread you slice and the apple your toddler drops and picks back up. The good news is that a safer kitchen does not require more time. It requires a simple rhythm and a few products you trust.

## Why the kitchen comes first

Conventional kitchen cleaners often combine **synthetic fragrance**, quaternary ammonium compounds and chlorine in one room with poor ventilation and lots of food-contact surfaces. Swapping them for plant-based, probiotic formulas reduces what lingers on counters and in the air, and it is the room where families tend to notice the difference fastest.

Before you start, clear out what you no longer want. Take old conventional cleaners to a household hazardous waste drop-off instead of pouring them down the sink.

## The 10-minute nightly reset

This is the whole routine on most nights. Put on a podcast and work through it in order:

1. **Load or wash the dishes.** Run the dishwasher with a [Dishy pod](/product/dishy-dishwasher-pods) and hand-wash the rest with a drop of Sudsy.
2. **Clear and wipe counters.** Spray [Surfy](/product/surfy-probiotic-all-purpose-cleaner), wait 30 seconds, and wipe with a damp microfiber cloth.
3. **Wipe the stovetop and handles.** Fridge, oven and cabinet handles collect more fingerprints than any other spot.
4. **Scrub the sink.** A quick sprinkle of Sinky and a soft brush, then rinse.
5. **Sweep or spot-mop.** Only where you see crumbs or spills. Full mopping can wait for the weekend.
6. **Swap the towel.** Hang a fresh dish towel and drop the used one in the hamper.

## Weekly and monthly jobs

Some tasks do not need to happen every day, but skipping them entirely is how grime and odors build. Here is the schedule we use at home:

| Task | How often | Product | Time |
| --- | --- | --- | --- |
| Counters and tables | Daily | Surfy | 3 min |
| Dishes | Daily | Sudsy or Dishy | 10 min |
| Sink and drain treatment | Weekly | Sinky | 5 min |
| Mop the floor | Weekly | Moppy | 10 min |
| Trash can wipe and deodorize | Weekly | Surfy and Trashy | 5 min |
| Fridge shelves and drawers | Monthly | Surfy | 20 min |
| Microwave and small appliances | Monthly | Surfy | 10 min |

## Produce deserves its own step

Fruits and vegetables travel through many hands before they reach your counter. A quick wash with [Sprouty Fruit & Veggie Wash](/product/sprouty-fruit-and-veggie-wash) helps remove wax and soil better than water alone, and it is fragrance-free so nothing alters the taste. Wash produce right before you eat it, not before storing it, because added moisture shortens shelf life.

## The tools that make it easy

A non-toxic routine works best with a small, dedicated kit:

- **Microfiber cloths in two colors**: one for counters, one for the sink and floor
- **A soft-bristle brush** for sink corners and around the faucet
- **A spray mop** with a washable pad for quick weekly floors
- **A glass jar** with a shaker lid if you like decanting powders

### Skip these common mistakes

- **Mixing products.** Never combine cleaners, and especially never follow a probiotic spray with bleach, which wipes out the beneficial bacteria.
- **Using too much.** Concentrated formulas only need a small amount. Extra product means extra residue.
- **Forgetting the sponge.** Rinse it well, let it dry between uses, and replace it every couple of weeks.

## What about raw meat?

Probiotic cleaners are designed for everyday cleaning, not disinfection. After handling raw meat, poultry or eggs, wash the surface with hot soapy water and follow food-safety guidance from trusted sources such as [FoodSafety.gov](https://www.foodsafety.gov). Then return to your normal routine.

## Make it a habit

The best routine is the one you actually follow. Keep your everyday products in one caddy under the sink, choose a consistent time each evening, and give yourself credit for progress rather than perfection. If you want to understand why probiotic formulas keep kitchens fresher between cleans, read [how probiotic cleaners work](/journal/how-probiotic-cleaners-work), or browse the full [kitchen collection](/shop) to build your own kit.`;

const ewgContent = `Walk down any cleaning aisle and you will see words like "natural," "green," "plant-powered" and "eco." None of them are regulated in a meaningful way. Ingredient ratings and careful label reading cut through the marketing, and once you know what to look for it only takes a minute per bottle.

## What EWG ratings are

The Environmental Working Group (EWG) is a non-profit research organization that reviews scientific literature and government data on ingredients. Its [Skin Deep database](https://www.ewg.org/skindeep/) scores individual ingredients on a **1 to 10 hazard scale**, and its Guide to Healthy Cleaning grades cleaning products from A to F. In our own [ingredient glossary](/ingredients), we use the familiar 1 to 10 scale so you can compare ingredients at a glance.

| Score | Hazard level | What it means for you |
| --- | --- | --- |
| 1-2 | Low | Little evidence of harm at normal use levels |
| 3-6 | Moderate | Some concerns, often dose or exposure dependent |
| 7-10 | High | Strong evidence of health or environmental concerns |
| Not rated | Unknown | Not enough public data yet, so look for transparency |

### Scores are a starting point, not a verdict

A score reflects hazard, not necessarily risk. **Dose and exposure matter.** Lemon peel oil scores moderate because it contains limonene, a possible skin allergen, but a small amount in a spray you wipe away is different from a concentrated oil on your skin. Likewise, a low score with limited data is less certain than a low score backed by many studies.

## How to read a cleaning label in five steps

1. **Find the full ingredient list.** Cleaning products are not always required to list every ingredient on the bottle. Brands that disclose everything, on the label or on their website, are showing you they have nothing to hide.
2. **Look for "fragrance" or "parfum."** This single word can represent dozens of undisclosed chemicals. If you or your children have allergies or asthma, choose **fragrance-free** products.
3. **Check the signal word.** US labels use "Caution," "Warning" or "Danger" to indicate hazard level. "Danger" signals the most serious risk, such as corrosive ingredients.
4. **Scan for the big offenders.** See the list below.
5. **Read the directions.** A product that needs gloves, ventilation and a rinse step is telling you something about its contents.

## Ingredients we avoid

These ingredients commonly appear in conventional cleaners and sit at the higher end of the hazard scale:

- **Fragrance (synthetic):** undisclosed mixtures that can contain phthalates and allergens
- **Sodium hypochlorite (bleach):** a respiratory irritant that forms toxic gases when mixed with ammonia or acids
- **Quaternary ammonium compounds ("quats"):** linked to asthma and skin irritation
- **Ammonia:** harsh fumes, especially in small, unventilated rooms
- **Some isothiazolinone preservatives:** common contact allergens

You will never find the first two in a Nurture Home bottle, and you can read why in the glossary entries for [synthetic fragrance and bleach](/ingredients).

## Ingredients that are usually a good sign

Plant-derived surfactants such as **decyl glucoside** and **coco glucoside**, mild buffers like **sodium citrate**, and simple minerals like **sodium bicarbonate** tend to score low and biodegrade readily. They clean effectively without leaving much behind.

## Decoding marketing claims

- **"Natural"**: no legal definition for cleaning products. Ask: natural what?
- **"Non-toxic"**: also unregulated. Look for full ingredient disclosure to back it up.
- **"Biodegradable"**: meaningful only when paired with a standard test and a timeframe.
- **"Unscented"**: may still contain masking fragrance. "Fragrance-free" is the clearer term.

## Putting it into practice

You do not need to replace everything at once. Start with the products you use most often and in the smallest spaces, typically the all-purpose spray and the toilet cleaner, and compare their labels with what you learn here. Our [Flushy toilet cleaner](/product/flushy-probiotic-toilet-cleaner) is an easy first swap for bathrooms without windows.

When you are ready for the bigger picture, read [how probiotic cleaners work](/journal/how-probiotic-cleaners-work) or learn about our formulation principles on the [how it works](/how-it-works) page. Every ingredient we use, its rating and its source are listed openly, because reading labels should not require a chemistry degree.`;

const refillContent = `Most cleaning bottles are used for a few weeks and thrown away, even though the sprayer and bottle could last for years. Refilling is the single easiest zero-waste habit in the home, and it usually saves money too. Here is how to set up a system that actually sticks.

## Why refills matter

A standard 16 oz spray bottle is mostly water and plastic. When you buy a **concentrate or a gallon refill** instead, you move less water, burn less fuel in shipping and send far less plastic to the landfill. Across our community, refills have already kept more than a million bottles out of the waste stream.

| Option | Plastic per 128 oz of cleaner | Typical cost per oz | Best for |
| --- | --- | --- | --- |
| Eight 16 oz spray bottles | About 8 bottles and 8 triggers | Highest | Trying a product |
| One gallon refill | 1 jug, no triggers | Lower | Your everyday spray |
| Concentrate | A fraction of a bottle | Lowest | Floors and laundry |
| Compostable pouch | No rigid plastic | Low | Powders and boosters |

## Build your refill station

Pick a spot with a little counter or shelf space, ideally near a sink. You will need:

- **Your original spray bottles**, rinsed and labeled
- **A wide-mouth funnel** to avoid spills
- **A permanent marker or label maker** to note the refill date
- **Glass jars** with lids for powders such as [Boosty Oxy Boost](/product/boosty-oxy-boost-refill-pouch)

## How to refill safely

1. **Only refill with the same product.** Never mix different cleaners in one bottle, even if both are non-toxic.
2. **Rinse before switching.** If you repurpose a bottle for a different product, rinse it well and relabel it.
3. **Use it within six months.** Probiotic formulas stay active for a long time in a sealed jug, but once decanted they do best when used within a season.
4. **Keep the original label.** It carries directions and cautions, which matters for anyone else in your home.

### Which Nurture Home products come as refills?

Our [Surfy all-purpose cleaner](/product/surfy-probiotic-all-purpose-cleaner) comes in a **1 gallon refill** that fills your spray bottle eight times. Moppy also comes in a gallon, Sudsy in a 48 oz refill, and Flushy in a 64 oz refill. Boosty ships in a compostable pouch designed to top up a tin or jar you already own.

## Beyond the bottle

Refilling is a great start, but a zero-waste cleaning cabinet goes further:

- **Swap paper towels for microfiber cloths.** Wash them with your towels and they last hundreds of cycles.
- **Choose a wooden brush with replaceable heads** for dishes and sinks.
- **Recycle trigger sprayers correctly.** Most curbside programs do not accept them, so keep and reuse them instead.
- **Return empty gallon jugs** through our take-back program when it launches in your area.

## Common questions from new refillers

Many people worry that refill jugs are awkward to store. A gallon fits neatly in the back of an under-sink cabinet and only needs to come out every month or two. Others worry about bacteria growing in reused bottles. Rinsing and letting bottles dry between different products solves that, and our probiotic formulas are designed to keep the beneficial cultures dominant.

A third common question is cost. Refills usually cost noticeably less per ounce than buying a new spray bottle each time, because you are no longer paying for a new trigger, a new label and the shipping weight of extra plastic. Over a year, a household that refills its everyday spray and dish soap can save a meaningful amount while sending dozens fewer bottles to the curb.

## Start with one product

You do not need to overhaul your whole cabinet. Choose the product you run out of fastest, usually your all-purpose spray or dish soap, and buy the refill size next time. Once you see how little effort it takes, the rest follows naturally. Browse refills in the [shop](/shop), or learn how our formulas stay effective on the [how it works](/how-it-works) page. If you are still deciding what to refill, our guide to [reading ingredient labels](/journal/how-to-read-ewg-ratings-and-ingredient-labels) can help you choose.`;

function article(
  slug: string,
  headline: string,
  description: string,
  image: string,
  author: string,
  datePublished: string,
): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline,
    description,
    image: `/api/public/${image}`,
    author: { '@type': 'Person', name: author },
    publisher: {
      '@type': 'Organization',
      name: 'Nurture Home',
      logo: { '@type': 'ImageObject', url: '/api/public/logo.svg' },
    },
    datePublished,
    mainEntityOfPage: `/journal/${slug}`,
  };
}

export const blogPosts: SeedBlogPost[] = [
  {
    slug: 'how-probiotic-cleaners-work',
    title: 'How Probiotic Cleaners Work (and Why They Keep Working After You Wipe)',
    excerpt:
      'Probiotic cleaners lift dirt like any other cleaner, then leave behind beneficial bacteria that keep breaking down odor-causing residue for days. Here is the science in plain language.',
    content: probioticsContent,
    image: 'journal-probiotics.svg',
    author: 'Maya Ellison',
    readTime: 5,
    category: 'Guides',
    published: true,
    metaTitle: 'How Probiotic Cleaners Work | Nurture Home Journal',
    metaDescription:
      'Learn how probiotic cleaners use beneficial Bacillus spores and enzymes to break down grime and odors for days, and when you still need a disinfectant.',
    targetKeywords: ['probiotic cleaner', 'how probiotic cleaning works', 'bacillus cleaning', 'non-toxic cleaner'],
    faqs: [
      {
        q: 'Are probiotic cleaners disinfectants?',
        a: 'No. Probiotic cleaners remove dirt and control odors by breaking down organic residue, but they are not registered to kill germs. Use a disinfectant when public-health guidance calls for one.',
      },
      {
        q: 'How long do probiotic cleaners keep working?',
        a: 'The beneficial bacteria can remain active on hard surfaces for several days after cleaning, which is why odors tend to return more slowly.',
      },
      {
        q: 'Are probiotic cleaners safe for pets and children?',
        a: 'Our strains are non-pathogenic and widely used in agriculture and water treatment. As with any cleaner, store bottles out of reach and follow the label.',
      },
      {
        q: 'Can I use bleach after a probiotic cleaner?',
        a: 'We do not recommend it. Bleach deactivates the beneficial bacteria and should never be mixed with other cleaners.',
      },
    ],
    internalLinks: [
      { anchor: 'ingredient glossary', href: '/ingredients' },
      { anchor: 'Flushy', href: '/product/flushy-probiotic-toilet-cleaner' },
      { anchor: 'Essential Starter Kit', href: '/product/essential-starter-kit' },
      { anchor: 'non-toxic kitchen routine', href: '/journal/non-toxic-kitchen-cleaning-routine' },
    ],
    schemaJsonLd: [
      article(
        'how-probiotic-cleaners-work',
        'How Probiotic Cleaners Work (and Why They Keep Working After You Wipe)',
        'How beneficial Bacillus spores and enzymes break down grime and odors for days.',
        'journal-probiotics.svg',
        'Maya Ellison',
        '2025-03-04',
      ),
    ],
    publishedAt: '2025-03-04T09:00:00.000Z',
  },
  {
    slug: 'non-toxic-kitchen-cleaning-routine',
    title: 'A Simple Non-Toxic Kitchen Cleaning Routine for Busy Families',
    excerpt:
      'A 10-minute nightly reset, a weekly and monthly schedule, and the few tools you need to keep a family kitchen clean without harsh chemicals.',
    content: kitchenContent,
    image: 'journal-kitchen-routine.svg',
    author: 'Jonah Reyes',
    readTime: 5,
    category: 'Home Care',
    published: true,
    metaTitle: 'Non-Toxic Kitchen Cleaning Routine | Nurture Home Journal',
    metaDescription:
      'A realistic non-toxic kitchen cleaning routine: a 10-minute nightly reset, weekly and monthly tasks, and safer products for food-contact surfaces.',
    targetKeywords: [
      'non-toxic kitchen cleaning',
      'kitchen cleaning routine',
      'safe cleaning products for kitchen',
      'natural kitchen cleaner',
    ],
    faqs: [
      {
        q: 'How often should I clean my kitchen counters?',
        a: 'Wipe counters daily after meals, and clear them completely once a week so you can clean underneath appliances and canisters.',
      },
      {
        q: 'Is it safe to use an all-purpose spray on food-contact surfaces?',
        a: 'Surfy is formulated with food-contact safe ingredients and needs no rinse. Always follow the label of any product you use near food.',
      },
      {
        q: 'What should I use after handling raw meat?',
        a: 'Wash the surface with hot soapy water and follow food-safety guidance for disinfection, then return to your everyday routine.',
      },
    ],
    internalLinks: [
      { anchor: 'Dishy pod', href: '/product/dishy-dishwasher-pods' },
      { anchor: 'Surfy', href: '/product/surfy-probiotic-all-purpose-cleaner' },
      { anchor: 'Sprouty Fruit & Veggie Wash', href: '/product/sprouty-fruit-and-veggie-wash' },
      { anchor: 'how probiotic cleaners work', href: '/journal/how-probiotic-cleaners-work' },
    ],
    schemaJsonLd: [
      article(
        'non-toxic-kitchen-cleaning-routine',
        'A Simple Non-Toxic Kitchen Cleaning Routine for Busy Families',
        'A 10-minute nightly reset plus weekly and monthly tasks for a non-toxic kitchen.',
        'journal-kitchen-routine.svg',
        'Jonah Reyes',
        '2025-04-15',
      ),
    ],
    publishedAt: '2025-04-15T09:00:00.000Z',
  },
  {
    slug: 'how-to-read-ewg-ratings-and-ingredient-labels',
    title: 'How to Read EWG Ratings and Cleaning Product Labels',
    excerpt:
      'What the 1 to 10 hazard scale means, how to spot hidden fragrance, and a five-step method for reading any cleaning label in under a minute.',
    content: ewgContent,
    image: 'journal-ewg-ratings.svg',
    author: 'Maya Ellison',
    readTime: 5,
    category: 'Ingredients',
    published: true,
    metaTitle: 'How to Read EWG Ratings & Cleaning Labels | Nurture Home',
    metaDescription:
      'Understand EWG hazard scores, spot hidden fragrance and harsh chemicals, and read any cleaning product label in five simple steps.',
    targetKeywords: ['EWG rating', 'how to read cleaning labels', 'cleaning ingredients to avoid', 'fragrance free cleaner'],
    faqs: [
      {
        q: 'What is a good EWG score?',
        a: 'On the 1 to 10 hazard scale, scores of 1 to 2 indicate low hazard, 3 to 6 moderate and 7 to 10 high. Lower is better, but data availability matters too.',
      },
      {
        q: 'Why is "fragrance" a concern on cleaning labels?',
        a: 'The single word can represent dozens of undisclosed chemicals, including common allergens. Fragrance-free products avoid the issue entirely.',
      },
      {
        q: 'Does "natural" mean non-toxic?',
        a: 'Not necessarily. "Natural" is not a regulated term for cleaning products, so full ingredient disclosure is a better guide.',
      },
    ],
    internalLinks: [
      { anchor: 'ingredient glossary', href: '/ingredients' },
      { anchor: 'Flushy toilet cleaner', href: '/product/flushy-probiotic-toilet-cleaner' },
      { anchor: 'how probiotic cleaners work', href: '/journal/how-probiotic-cleaners-work' },
      { anchor: 'how it works', href: '/how-it-works' },
    ],
    schemaJsonLd: [
      article(
        'how-to-read-ewg-ratings-and-ingredient-labels',
        'How to Read EWG Ratings and Cleaning Product Labels',
        'EWG hazard scores explained, plus a five-step method for reading cleaning labels.',
        'journal-ewg-ratings.svg',
        'Maya Ellison',
        '2025-05-20',
      ),
    ],
    publishedAt: '2025-05-20T09:00:00.000Z',
  },
  {
    slug: 'zero-waste-refill-guide',
    title: 'The Zero-Waste Refill Guide: Make Every Bottle Last for Years',
    excerpt:
      'How to set up a simple refill station, refill safely, and cut cleaning-cabinet plastic without spending more.',
    content: refillContent,
    image: 'journal-refill-guide.svg',
    author: 'Jonah Reyes',
    readTime: 4,
    category: 'Guides',
    published: false,
    metaTitle: 'Zero-Waste Cleaning Refill Guide | Nurture Home Journal',
    metaDescription:
      'Set up a refill station, refill cleaning bottles safely, and cut plastic waste with gallon refills, concentrates and compostable pouches.',
    targetKeywords: ['zero waste cleaning', 'refillable cleaning products', 'cleaning refill station', 'plastic free cleaning'],
    faqs: [
      {
        q: 'Can I refill any spray bottle?',
        a: 'Yes, as long as you only refill it with the same product, rinse it before switching products, and keep it clearly labeled.',
      },
      {
        q: 'How long does a gallon refill last?',
        a: 'A gallon of Surfy refills a 16 oz bottle eight times, which lasts most households several months.',
      },
      {
        q: 'Are trigger sprayers recyclable?',
        a: 'Most curbside programs do not accept them because of the metal spring inside, which is why reusing them is the better option.',
      },
    ],
    internalLinks: [
      { anchor: 'Surfy all-purpose cleaner', href: '/product/surfy-probiotic-all-purpose-cleaner' },
      { anchor: 'Boosty Oxy Boost', href: '/product/boosty-oxy-boost-refill-pouch' },
      { anchor: 'shop', href: '/shop' },
      { anchor: 'reading ingredient labels', href: '/journal/how-to-read-ewg-ratings-and-ingredient-labels' },
    ],
    schemaJsonLd: [
      article(
        'zero-waste-refill-guide',
        'The Zero-Waste Refill Guide: Make Every Bottle Last for Years',
        'Set up a refill station and cut plastic waste from your cleaning routine.',
        'journal-refill-guide.svg',
        'Jonah Reyes',
        '2025-06-24',
      ),
    ],
    publishedAt: '2025-06-24T09:00:00.000Z',
  },
];

// ---------------------------------------------------------------------------
// Impact counters and promo codes
// ---------------------------------------------------------------------------

export const impact: SeedImpact = {
  bottlesSaved: 1284500,
  chemicalsAvoided: 53200,
  homesHelped: 27150,
};

export const promoCodes: SeedPromoCode[] = [
  { code: 'WELCOME10', discountType: 'percentage', discountValue: 10, isActive: true },
  { code: 'SAVE5', discountType: 'fixed', discountValue: 5, isActive: true },
  { code: 'SPRING20', discountType: 'percentage', discountValue: 20, isActive: false },
];
