// Catalogue domains of marketing and media: campaigns, the media library, the blog, the podcast, lists and newsletters.
import { verb, type Domain } from '../spec';

export const Campaign: Domain = {
  key: 'Campaign',
  about: 'marketing campaigns (email, social, ads, events) with a budget, an audience and results',
  statuses: ['draft', 'scheduled', 'running', 'paused', 'completed'],
  fields: {
    name: 'string Name, e.g. Spring sale 2026',
    channel: 'enum(email|social|ads|events) Where it runs',
    budget: 'money? What may be spent',
    startDate: 'date First day',
    endDate: 'date? Last day',
    mailingListId: 'id? The audience, for email campaigns',
    ownerId: 'id? The marketer in charge',
  },
  filters: { channel: 'enum(email|social|ads|events)? Only this channel', ownerId: 'id? Only this marketer’s' },
  assignee: 'ownerId',
  toolsets: ['marketing'],
  verbs: [
    verb('post {id}/launch', 'Launch campaign', 'Starts the campaign now: emails go out, ads and posts go live.', {
      sets: { status: 'running' },
    }),
    verb(
      'post {id}/pause',
      'Pause campaign',
      'Stops the campaign’s sending and ads for now; its results so far are kept.',
      { sets: { status: 'paused' } },
    ),
    verb('post {id}/schedule', 'Schedule campaign', 'Sets the campaign to start by itself at a time.', {
      body: { startsAt: 'datetime When it starts' },
      sets: { status: 'scheduled' },
    }),
    verb(
      'get {id}/performance',
      'Get campaign performance',
      'Returns the campaign’s results: reach, clicks, conversions, spend and return on investment.',
      {
        output: {
          campaignId: 'id The campaign',
          impressions: 'int Times it was seen',
          clicks: 'int Clicks',
          conversions: 'int Sign-ups or purchases it brought',
          spend: 'money What it cost so far',
          roiPercent: 'number Return on investment, in percent',
        },
        toolsets: ['reporting'],
      },
    ),
    verb('post {id}/contacts', 'Add contacts to campaign', 'Adds contacts to the campaign’s audience.', {
      body: { contactIds: 'id[] The contacts' },
      output: { campaignId: 'id The campaign', added: 'int How many were added' },
      additive: true,
    }),
    verb('get {id}/leads', 'List campaign leads', 'Returns the leads the campaign brought in, newest first.', {
      output: { items: ['The leads', { leadId: 'id The lead', name: 'string Name', createdAt: 'datetime When' }] },
      toolsets: ['crm'],
    }),
  ],
};

export const MediaAsset: Domain = {
  key: 'MediaAsset',
  about: 'the marketing media library: images, audio, video and brand files, with their rights and formats',
  statuses: ['processing', 'ready', 'failed'],
  fields: {
    fileName: 'string File name, e.g. hero-banner.png',
    kind: 'enum(image|audio|video|document) What it is',
    url: 'url Where the original is',
    altText: 'string? Description for screen readers',
    license: 'enum(owned|licensed|creative_commons)? Rights to use it',
  },
  filters: { kind: 'enum(image|audio|video|document)? Only this kind' },
  toolsets: ['media', 'marketing'],
  verbs: [
    verb(
      'post upload',
      'Upload media',
      'Adds an image, audio or video file to the library from a URL; previews are made in the background.',
      {
        body: {
          url: 'url Where to fetch it',
          fileName: 'string File name',
          kind: 'enum(image|audio|video|document) What it is',
        },
        output: 'record',
        sets: { status: 'processing' },
        additive: true,
      },
    ),
    verb(
      'get {id}/thumbnail',
      'Get image thumbnail',
      'Returns a small preview of an image or video, at a width (default 320 pixels).',
      {
        query: { width: 'int(16..2048)? Width in pixels' },
        output: {
          mediaAssetId: 'id The asset',
          url: 'url The thumbnail (PNG)',
          width: 'int Width in pixels',
          height: 'int Height in pixels',
        },
      },
    ),
    verb('post {id}/resize', 'Resize image', 'Makes a copy of an image at another size, cropping to fit if asked.', {
      body: {
        width: 'int Width in pixels',
        height: 'int Height in pixels',
        crop: 'bool? Crop to fill (default: fit inside)',
      },
      output: {
        mediaAssetId: 'id The new asset',
        url: 'url The resized image',
        width: 'int Width in pixels',
        height: 'int Height in pixels',
      },
    }),
    verb(
      'post {id}/transcode',
      'Transcode audio',
      'Converts an audio or video file to another format (MP3, AAC, Ogg) for the web.',
      {
        body: { format: 'enum(mp3|aac|ogg) The format', bitrateKbps: 'int? Quality (default 128)' },
        output: {
          mediaAssetId: 'id The new asset',
          url: 'url The converted file',
          format: 'enum(mp3|aac|ogg) The format',
          durationSeconds: 'int Length',
        },
      },
    ),
    verb(
      'get {id}/download',
      'Get media download link',
      'Returns a link to download the original file, valid for one hour.',
      {
        output: {
          mediaAssetId: 'id The asset',
          url: 'url Download link',
          contentType: 'string Its type, e.g. image/png',
          sizeBytes: 'int Size in bytes',
        },
      },
    ),
    verb('post {id}/crop', 'Crop image', 'Cuts a rectangle out of an image, e.g. a square for a profile picture.', {
      body: {
        x: 'int Left edge in pixels',
        y: 'int Top edge in pixels',
        width: 'int Width in pixels',
        height: 'int Height in pixels',
      },
      output: { mediaAssetId: 'id The new asset', url: 'url The cropped image' },
    }),
  ],
};

export const BlogPost: Domain = {
  key: 'BlogPost',
  about: 'articles of the company blog, with author, tags, cover image and publication date',
  statuses: ['draft', 'in_review', 'scheduled', 'published'],
  fields: {
    title: 'string Title, e.g. Five ways to cut shipping costs',
    body: 'text The article, in Markdown',
    authorId: 'id Who wrote it',
    tags: 'string[]? Tags, e.g. logistics',
    coverImageUrl: 'url? The image at the top',
  },
  filters: { authorId: 'id? Only this author’s posts', tag: 'string? Only posts with this tag' },
  toolsets: ['marketing'],
  verbs: [
    verb('post {id}/publish', 'Publish blog post', 'Puts the post on the blog now and in its RSS feed.', {
      sets: { status: 'published' },
    }),
    verb('post {id}/schedule', 'Schedule blog post', 'Publishes the post by itself at a time.', {
      body: { publishAt: 'datetime When' },
      sets: { status: 'scheduled' },
    }),
    verb(
      'get feed',
      'Get blog RSS feed',
      'Returns the blog’s latest published posts as an RSS 2.0 feed, for feed readers.',
      {
        query: { tag: 'string? Only posts with this tag' },
        output: { url: 'url The feed’s address', xml: 'text The feed (application/rss+xml)' },
      },
    ),
    verb('post {id}/unpublish', 'Unpublish blog post', 'Takes the post off the blog; it stays as a draft.', {
      sets: { status: 'draft' },
    }),
    verb('post {id}/review', 'Request blog post review', 'Asks an editor to review the draft.', {
      body: { editorId: 'id The editor' },
      sets: { status: 'in_review' },
    }),
    verb(
      'put {id}/cover-image',
      'Set blog post cover image',
      'Sets the image shown at the top of the post and in previews.',
      { body: { coverImageUrl: 'url The image' } },
    ),
  ],
};

export const PodcastEpisode: Domain = {
  key: 'PodcastEpisode',
  about: 'episodes of the company podcast: an MP3 recording, show notes and a publication date',
  statuses: ['draft', 'scheduled', 'published'],
  fields: {
    title: 'string Title, e.g. Ep. 12: Warehouse robots',
    showNotes: 'text? What the episode covers, with links',
    audioUrl: 'url? The MP3 recording',
    durationSeconds: 'int? Length in seconds, e.g. 2710',
  },
  toolsets: ['marketing', 'media'],
  verbs: [
    verb(
      'post {id}/audio',
      'Upload episode audio',
      'Sets the episode’s recording from a URL (MP3 or WAV; WAV is converted).',
      {
        body: { url: 'url Where the recording is' },
        output: { podcastEpisodeId: 'id The episode', audioUrl: 'url The stored MP3', durationSeconds: 'int Length' },
      },
    ),
    verb('get {id}/audio', 'Get episode audio', 'Returns the episode’s MP3 recording: its link, length and size.', {
      output: {
        podcastEpisodeId: 'id The episode',
        audioUrl: 'url The MP3',
        contentType: 'string Always audio/mpeg',
        durationSeconds: 'int Length',
        sizeBytes: 'int Size',
      },
    }),
    verb('post {id}/publish', 'Publish episode', 'Puts the episode in the podcast feed, so apps pick it up.', {
      sets: { status: 'published' },
    }),
    verb(
      'get feed',
      'Get podcast feed',
      'Returns the podcast’s RSS feed (with iTunes tags), as podcast apps read it.',
      {
        output: { url: 'url The feed’s address', xml: 'text The feed (application/rss+xml)' },
      },
    ),
    verb(
      'post {id}/transcript',
      'Transcribe episode',
      'Makes a text transcript of the recording, with speakers and times.',
      {
        output: { podcastEpisodeId: 'id The episode', text: 'text The transcript', words: 'int Words' },
      },
    ),
    verb(
      'get {id}/downloads',
      'Get episode downloads',
      'Returns how often the episode was downloaded or streamed, by day and by app.',
      {
        output: {
          podcastEpisodeId: 'id The episode',
          total: 'int Downloads',
          byApp: ['By app', { app: 'string The app, e.g. Apple Podcasts', downloads: 'int Downloads' }],
        },
        toolsets: ['reporting'],
      },
    ),
  ],
};

export const MailingList: Domain = {
  key: 'MailingList',
  about: 'lists of email subscribers that newsletters and campaigns are sent to',
  statuses: ['active', 'archived'],
  fields: {
    name: 'string Name, e.g. Product updates',
    description: 'text? What subscribers get',
    doubleOptIn: 'bool? New subscribers confirm by email (default true)',
  },
  computed: { subscribers: 'int How many subscribers it has' },
  toolsets: ['marketing'],
  verbs: [
    verb(
      'post {id}/subscribers',
      'Add subscriber',
      'Adds an email address to the list; with double opt-in it gets a confirmation email first.',
      {
        body: { email: 'email The address', firstName: 'string? First name' },
        output: {
          mailingListId: 'id The list',
          email: 'email The address',
          confirmed: 'bool Whether it is confirmed already',
        },
        additive: true,
      },
    ),
    verb('del {id}/subscribers/{email}', 'Remove subscriber', 'Takes an email address off the list.', {
      params: { email: 'email The address' },
    }),
    verb(
      'post {id}/import',
      'Import subscribers from CSV',
      'Adds many subscribers from CSV text (columns email, first name); addresses already on the list are skipped.',
      {
        body: { csv: 'text The subscribers as CSV' },
        output: { mailingListId: 'id The list', imported: 'int Added', skipped: 'int Already there or invalid' },
        additive: true,
      },
    ),
    verb('get {id}/subscribers', 'List subscribers', 'Returns the list’s subscribers, newest first.', {
      query: { limit: 'int(1..100)? How many' },
      output: {
        items: [
          'The subscribers',
          { email: 'email The address', subscribedAt: 'datetime When', confirmed: 'bool Confirmed' },
        ],
      },
    }),
    verb('get {id}/growth', 'Get list growth', 'Returns how many joined and left the list each month.', {
      output: {
        mailingListId: 'id The list',
        months: ['By month', { month: 'string The month, e.g. 2026-04', joined: 'int Joined', left: 'int Left' }],
      },
      toolsets: ['reporting'],
    }),
    verb(
      'post {id}/clean',
      'Remove bounced addresses',
      'Takes off the list the addresses that bounced or complained, to protect sending reputation.',
      {
        output: { mailingListId: 'id The list', removed: 'int Addresses removed' },
      },
    ),
  ],
};

export const Newsletter: Domain = {
  key: 'Newsletter',
  about: 'newsletter issues emailed to a mailing list, from draft to sent, with opens and clicks',
  statuses: ['draft', 'scheduled', 'sent'],
  fields: {
    subject: 'string Subject line, e.g. What’s new in March',
    mailingListId: 'id The list it goes to',
    html: 'text The email, in HTML',
    sendAt: 'datetime? When to send it',
  },
  filters: { mailingListId: 'id? Only this list’s issues' },
  toolsets: ['marketing'],
  verbs: [
    verb('post {id}/schedule', 'Schedule newsletter', 'Sets the newsletter to go out by itself at a time.', {
      body: { sendAt: 'datetime When' },
      sets: { status: 'scheduled' },
    }),
    verb('post {id}/send', 'Send newsletter now', 'Sends the newsletter to the whole list now.', {
      sets: { status: 'sent' },
    }),
    verb(
      'post {id}/unschedule',
      'Cancel scheduled newsletter',
      'Stops a scheduled newsletter from going out; it goes back to draft.',
      { sets: { status: 'draft' } },
    ),
    verb(
      'get {id}/report',
      'Get newsletter report',
      'Returns how the newsletter did: delivered, opened, clicked, unsubscribed.',
      {
        output: {
          newsletterId: 'id The newsletter',
          delivered: 'int Delivered',
          openRate: 'percent Opened',
          clickRate: 'percent Clicked',
          unsubscribes: 'int Unsubscribed',
        },
        toolsets: ['reporting'],
      },
    ),
    verb('post {id}/test', 'Send test newsletter', 'Sends the newsletter to one address to check how it looks.', {
      body: { to: 'email Where to send the test' },
      output: { newsletterId: 'id The newsletter', to: 'email Where it went' },
    }),
  ],
};
